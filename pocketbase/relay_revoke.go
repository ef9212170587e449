package main

// revoke drops a signed-out session's token from every connection that registered it (its user
// too, unless another of their sessions is registered there) and tells every web process: the one
// holding the session's streams closes them, and each forgets that the session was valid.
func (h *relayHub) revoke(hash string) {
	h.mu.RLock()
	conns := make([]*relayConn, 0, len(h.conns))
	for _, c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.RUnlock()
	for _, c := range conns {
		c.mu.Lock()
		userID, ok := c.tokens[hash]
		if ok {
			delete(c.tokens, hash)
			if c.users[userID]--; c.users[userID] <= 0 {
				c.dropUser(userID)
			}
		}
		c.mu.Unlock()
		c.send([]byte("event: revoked\ndata: {\"to\":[],\"record\":{\"token\":\"" + hash + "\"}}\n\n"))
	}
}

// revokeUser drops every session of a user from every connection, each as if it had signed out: the
// account got a new token key (a new password), so none of its tokens is valid any more.
func (h *relayHub) revokeUser(userID string) {
	h.mu.RLock()
	conns := make([]*relayConn, 0, len(h.conns))
	for _, c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.RUnlock()
	hashes := map[string]struct{}{}
	for _, c := range conns {
		c.mu.RLock()
		for hash, owner := range c.tokens {
			if owner == userID {
				hashes[hash] = struct{}{}
			}
		}
		c.mu.RUnlock()
	}
	for hash := range hashes {
		h.revoke(hash)
	}
}

type relayUsersForm struct {
	Relay  string   `json:"relay"`
	Add    []string `json:"add"`
	Remove []string `json:"remove"`
}
