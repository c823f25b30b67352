// tests/clients/typescript/codegen.ts
import type { CodegenConfig } from "@graphql-codegen/cli";

const config: CodegenConfig = {
  // The file `make schema` writes; a running server's URL works too (introspection on).
  schema: "../../../schema.graphql",
  documents: ["src/**/*.ts", "!src/gql/**/*"],
  ignoreNoDocuments: false,
  // Imports ending in ".js", which Node's ES modules need (bundlers accept them too).
  emitLegacyCommonJSImports: false,
  generates: {
    "src/gql/": {
      preset: "client",
      presetConfig: {
        fragmentMasking: { unmaskFunctionName: "getFragmentData" },
      },
      config: {
        enumsAsTypes: true,
        scalars: { DateTime: "string" },
        strictScalars: true,
        useTypeImports: true,
      },
    },
  },
};

export default config;
