// tests/clients/typescript/relay/UserOrders.ts
import { graphql } from "relay-runtime";

// usePaginationFragment(userOrders, user) pages through this; its refetch query is
// `node(id:)` on the user, which @refetchable writes because User implements Node.
export const userOrders = graphql`
  fragment UserOrders_user on User
  @refetchable(queryName: "UserOrdersPaginationQuery")
  @argumentDefinitions(
    count: { type: "Int", defaultValue: 20 }
    cursor: { type: "String" }
    maxCreateTime: { type: "DateTime" }
  ) {
    orders(first: $count, after: $cursor, maxCreateTime: $maxCreateTime)
      @connection(key: "UserOrders_orders") {
      totalCount
      edges {
        node {
          id
          orderId
          createTime
        }
      }
    }
  }
`;

export const userOrdersScreen = graphql`
  query UserOrdersScreenQuery($userId: String!) {
    user(userId: $userId) {
      id
      ...UserOrders_user
    }
  }
`;
