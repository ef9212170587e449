// The ratchet tree of a GroupInfo's ratchet_tree extension (RFC 9420 §7.8, §12.4.3.3), read as far as
// mlscheck.go needs: the leaf node at a leaf index, with its signature key and credential.
package main

import (
	"errors"
	"fmt"
)

type mlsLeaf struct {
	signatureKey   []byte
	credentialType uint16
	identity       []byte
}

// leafAt reads the tree (optional<Node> ratchet_tree<V>) and answers the leaf of leaf index `leaf`
// (node index 2*leaf), or an error when the tree is malformed or that leaf is blank.
func leafAt(tree []byte, leaf uint32) (mlsLeaf, error) {
	r := &mlsReader{buf: tree}
	var found *mlsLeaf
	want := uint64(leaf) * 2
	var index uint64
	r.vector(func(n *mlsReader) {
		present := n.u8()
		switch {
		case n.err != nil:
		case present == 0:
		case present != 1:
			n.fail(errors.New("invalid optional"))
		default:
			switch kind := n.u8(); kind {
			case nodeLeaf:
				l := readLeafNode(n)
				if index == want && n.err == nil {
					found = &l
				}
			case nodeParent:
				n.opaque()                               // encryption_key
				n.opaque()                               // parent_hash
				n.vector(func(u *mlsReader) { u.u32() }) // unmerged_leaves
			default:
				n.fail(fmt.Errorf("invalid node type %d", kind))
			}
		}
		index++
	})
	if r.done() != nil {
		return mlsLeaf{}, errors.New("group_info's ratchet tree is not well-formed.")
	}
	if found == nil {
		return mlsLeaf{}, errors.New("group_info's signer is not a leaf of its ratchet tree.")
	}
	return *found, nil
}

// readLeafNode reads a LeafNode (RFC 9420 §7.2).
func readLeafNode(r *mlsReader) mlsLeaf {
	var l mlsLeaf
	r.opaque() // encryption_key
	l.signatureKey = r.opaque()
	l.credentialType = r.u16()
	switch l.credentialType {
	case credentialBasic:
		l.identity = r.opaque()
	case credentialX509:
		r.vector(func(c *mlsReader) { c.opaque() })
	default:
		r.fail(errors.New("unknown credential type"))
	}
	for range 5 { // capabilities: versions, cipher_suites, extensions, proposals, credentials
		r.opaque()
	}
	switch source := r.u8(); source {
	case 1: // key_package: lifetime
		r.u64()
		r.u64()
	case 2: // update
	case 3: // commit: parent_hash
		r.opaque()
	default:
		r.fail(fmt.Errorf("invalid leaf node source %d", source))
	}
	r.extensions(nil)
	r.opaque() // signature
	return l
}
