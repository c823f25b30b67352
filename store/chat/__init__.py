"""Chat: sessions (`chat_sessions`, their counters and owner), their messages in capped pages
(`chat_pages`, bucket pages) and their memberships (`chat_members`, keyed by the member);
creating and deleting a session across the three, posting, editing and reading messages; the
page cap checked against the largest message; owners and members for sessions stored before
them (`arraygraph migrate`); the demo's chat."""
