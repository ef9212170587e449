// A GroupInfo MLSMessage (RFC 9420 §12.4.3) as mlscheck.go reads it: its group context (fields and
// bytes), its ratchet tree extension, its signer, and the bytes its signature covers.
package main

import "errors"

type mlsGroupInfo struct {
	version, suite uint16
	group          []byte
	epoch          uint64
	context        []byte // the GroupContext's bytes (what the epoch's FramedContentTBS ends with)
	tree           []byte // the ratchet_tree extension's data
	trees          int    // how many ratchet_tree extensions there are
	signer         uint32
	tbs            []byte // GroupInfoTBS
	signature      []byte
}

func readGroupInfo(data []byte) (mlsGroupInfo, error) {
	var info mlsGroupInfo
	r := &mlsReader{buf: data}
	version, wire := r.u16(), r.u16()
	if r.err != nil || version != mlsVersion10 || wire != wireGroupInfo {
		return info, errors.New("group_info is not an MLS 1.0 GroupInfo.")
	}
	start := r.pos
	info.version, info.suite = r.u16(), r.u16()
	info.group, info.epoch = r.opaque(), r.u64()
	r.opaque() // tree_hash
	r.opaque() // confirmed_transcript_hash
	r.extensions(nil)
	if r.err == nil {
		info.context = data[start:r.pos]
	}
	// GroupInfo's own extensions: the app always sends the ratchet tree.
	r.extensions(func(kind uint16, data []byte) {
		if kind == extensionRatchetTree {
			info.tree = data
			info.trees++
		}
	})
	r.opaque() // confirmation_tag
	info.signer = r.u32()
	if r.err == nil {
		info.tbs = data[start:r.pos]
	}
	info.signature = r.opaque()
	if r.done() != nil {
		return info, errors.New("group_info is not a well-formed GroupInfo.")
	}
	return info, nil
}
