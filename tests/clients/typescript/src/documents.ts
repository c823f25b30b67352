// tests/clients/typescript/src/documents.ts
import { graphql } from "./gql/index.js";

export const sensorFields = graphql(`
  fragment SensorFields on Sensor {
    id
    sensorId
    title
    count24h
  }
`);

export const sensorsQuery = graphql(`
  query Sensors($first: Int!) {
    sensors(first: $first) {
      totalCount
      edges {
        node {
          ...SensorFields
        }
      }
    }
  }
`);

export const nodeQuery = graphql(`
  query NodeById($id: ID!) {
    node(id: $id) {
      __typename
      id
      ... on Sensor {
        ...SensorFields
      }
    }
  }
`);

export const userOrdersQuery = graphql(`
  query UserOrders($userId: String!, $first: Int!, $after: String) {
    user(userId: $userId) {
      id
      name
      orders(first: $first, after: $after) {
        totalCount
        edges {
          node {
            id
            orderId
            info
            createTime
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`);
