"""Users and their embedded orders (`users`, the collection), and a page of a user's orders
read from the embedded array (`order_pages`)."""
