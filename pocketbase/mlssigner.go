// Who sent a public commit (RFC 9420 §6.2, §6.1): a member's must be the leaf that signed the GroupInfo
// sent with it, an external commit's signature must verify with that leaf's key, over the group context
// of the GroupInfo it was made from (the one the delivery service keeps). With checkGroupInfo's check
// that this leaf is one of the caller's devices, nobody passes on another's external commit as theirs.
// A private message's sender is encrypted: nothing to see.
package main

import "errors"

// checkCommitSender checks a commit that checkCommit accepted against current (the kept GroupInfo of
// the commit's epoch) and next (the GroupInfo sent with it, accepted by checkGroupInfo).
func checkCommitSender(commit, current, next []byte) error {
	r := &mlsReader{buf: commit}
	r.u16() // version
	if r.u16() != wirePublicMessage {
		return nil
	}
	r.opaque() // group_id
	r.u64()    // epoch
	sender := r.u8()
	var leaf uint32
	if sender == senderMember {
		leaf = r.u32()
	}
	r.opaque() // authenticated_data
	r.u8()     // content_type: commit (checkCommit)
	r.opaque() // proposals
	if path := r.u8(); path == 1 {
		readLeafNode(r)
		r.vector(func(n *mlsReader) { // UpdatePathNode nodes<V>
			n.opaque()                    // encryption_key
			n.vector(func(c *mlsReader) { // HPKECiphertext encrypted_path_secret<V>
				c.opaque() // kem_output
				c.opaque() // ciphertext
			})
		})
	} else if path != 0 {
		r.fail(errors.New("invalid optional"))
	}
	end := r.pos
	signature := r.opaque()
	r.opaque() // confirmation_tag
	if sender == senderMember {
		r.opaque() // membership_tag
	}
	if r.done() != nil {
		return errors.New("commit is not a well-formed MLS public message.")
	}
	info, err := readGroupInfo(next)
	if err != nil {
		return err
	}
	if sender == senderMember {
		if leaf != info.signer {
			return errors.New("commit's sender is not the device that signed group_info.")
		}
		return nil
	}
	was, err := readGroupInfo(current)
	if err != nil {
		return errors.New("the group's kept GroupInfo cannot be read, so no external commit can be checked against it.")
	}
	signer, err := leafAt(info.tree, info.signer)
	if err != nil {
		return err
	}
	tbs := append(append([]byte{}, commit[:end]...), was.context...) // FramedContentTBS
	if !verifyLabelled(signer.signatureKey, "FramedContentTBS", tbs, signature) {
		return errors.New("commit is not signed by the device that signed group_info.")
	}
	return nil
}
