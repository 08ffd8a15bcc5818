"""Certificates anyone can verify: issued on a passed exam or by an instructor, signed with
the install's Ed25519 key, checked on a public verify page."""
