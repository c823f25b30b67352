// tests/clients/typescript/codegen.ts
import type { CodegenConfig } from "@graphql-codegen/cli";
import { addTypenameSelectionDocumentTransform } from "@graphql-codegen/client-preset";

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
        // persisted-documents.json, for ARRAYGRAPH_TRUSTED_DOCUMENTS: {"sha256:<hash>": text}.
        persistedDocuments: { hashAlgorithm: "sha256" },
      },
      // __typename where Apollo Client adds it, so the documents the server keeps answer
      // what Apollo's cache needs.
      documentTransforms: [addTypenameSelectionDocumentTransform],
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
