"""Discord adapters: parse interactions, call the game host, reply. No rules live here."""
