"""Chat: sessions (`chat_sessions`, their counters) and their messages in capped pages
(`chat_pages`, bucket pages); posting, editing and reading messages over the two; the page
cap checked against the largest message; the demo's chat."""
