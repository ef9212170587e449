// What the delivery service checks of the MLS data a member sends (docs/decisions/0046-delivery-service-checks.md):
// a commit is an MLS 1.0 commit for this group and epoch, and a GroupInfo is this group's at the epoch
// the group moves to, in our cipher suite, signed by a leaf of the caller's own devices. The hooks
// (pb_hooks/lib/mls.js) call it as $mlsCheck before they store anything. Nothing here decrypts: a
// commit's content stays unreadable to the server.
package main

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"

	"github.com/dop251/goja"
)

// RFC 9420 code points (§17).
const (
	mlsVersion10           = 1
	wirePublicMessage      = 1
	wirePrivateMessage     = 2
	wireGroupInfo          = 4
	contentTypeApplication = 1
	contentTypeCommit      = 3
	senderMember           = 1
	senderNewMemberCommit  = 4
	cipherSuiteX25519      = 1 // MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519, the app's only suite
	extensionRatchetTree   = 2
	credentialBasic        = 1
	credentialX509         = 2
	nodeLeaf               = 1
	nodeParent             = 2
)

// A device credential's identity (app/conversation/mls/identity.ts) is "<user id>:<device id>:<proof>";
// the server reads the user id (the proof is for members to check, with the user's identity key).
var deviceIdentity = regexp.MustCompile(`^([a-z0-9]{15}):`)

// checkCommit answers nil when data is an MLSMessage carrying a commit for groupID at epoch: a
// private_message (a member's commit) or a public_message from a member or a new member (an
// external commit); an external join's (`external`) must be a public_message.
func checkCommit(data []byte, groupID string, epoch uint64, external bool) error {
	r := &mlsReader{buf: data}
	version, wire := r.u16(), r.u16()
	if r.err != nil || version != mlsVersion10 {
		return errors.New("commit is not an MLS 1.0 message.")
	}
	if external && wire != wirePublicMessage {
		return errors.New("commit of an external join must be an MLS public message.")
	}
	var group []byte
	var at uint64
	var content uint8
	switch wire {
	case wirePrivateMessage:
		group, at, content = r.opaque(), r.u64(), r.u8()
		r.opaque() // authenticated_data
		r.opaque() // encrypted_sender_data
		r.opaque() // ciphertext
		if r.done() != nil {
			return errors.New("commit is not a well-formed MLS private message.")
		}
	case wirePublicMessage:
		group, at = r.opaque(), r.u64()
		switch r.u8() {
		case senderMember:
			r.u32()
		case senderNewMemberCommit:
		default:
			if r.err == nil {
				return errors.New("commit must come from a member or a joining device.")
			}
		}
		r.opaque() // authenticated_data
		content = r.u8()
		if r.err != nil {
			return errors.New("commit is not a well-formed MLS public message.")
		}
	default:
		return errors.New("commit must be an MLS private or public message.")
	}
	if !bytes.Equal(group, []byte(groupID)) {
		return errors.New("commit is not for this channel's group.")
	}
	if at != epoch {
		return fmt.Errorf("commit was made at epoch %d, not at epoch %d.", at, epoch)
	}
	if content != contentTypeCommit {
		return errors.New("commit does not carry a commit.")
	}
	return nil
}

// checkGroupInfo answers nil when data is an MLSMessage carrying the GroupInfo of groupID at epoch, in
// cipher suite 1, with a ratchet tree in which the signer's leaf has a basic credential of one of
// userID's devices whose signature key verifies the GroupInfo's signature.
func checkGroupInfo(data []byte, groupID string, epoch uint64, userID string) error {
	info, err := readGroupInfo(data)
	if err != nil {
		return err
	}
	switch {
	case info.version != mlsVersion10 || info.suite != cipherSuiteX25519:
		return errors.New("group_info must be for MLS 1.0 and the cipher suite MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519.")
	case !bytes.Equal(info.group, []byte(groupID)):
		return errors.New("group_info is not for this channel's group.")
	case info.epoch != epoch:
		return fmt.Errorf("group_info is for epoch %d, not for epoch %d.", info.epoch, epoch)
	case info.trees != 1:
		return errors.New("group_info must carry the group's ratchet tree.")
	}
	leaf, err := leafAt(info.tree, info.signer)
	if err != nil {
		return err
	}
	if leaf.credentialType != credentialBasic {
		return errors.New("group_info's signer has no device credential.")
	}
	match := deviceIdentity.FindSubmatch(leaf.identity)
	if match == nil || string(match[1]) != userID {
		return errors.New("group_info must be signed by one of your own devices.")
	}
	if !verifyLabelled(leaf.signatureKey, "GroupInfoTBS", info.tbs, info.signature) {
		return errors.New("group_info's signature does not verify.")
	}
	return nil
}

// verifyLabelled is VerifyWithLabel (RFC 9420 §5.1.2) with Ed25519.
func verifyLabelled(key []byte, label string, content, signature []byte) bool {
	return len(key) == ed25519.PublicKeySize && ed25519.Verify(key, signContent(label, content), signature)
}

// signContent is SignWithLabel's input (RFC 9420 §5.1.2): opaque label<V> = "MLS 1.0 " + label, opaque content<V>.
func signContent(label string, content []byte) []byte {
	full := "MLS 1.0 " + label
	out := appendVarLen(nil, len(full))
	out = append(out, full...)
	out = appendVarLen(out, len(content))
	return append(out, content...)
}

func appendVarLen(out []byte, n int) []byte {
	switch {
	case n < 64:
		return append(out, byte(n))
	case n < 16384:
		return append(out, byte(n>>8)|0x40, byte(n))
	}
	return append(out, byte(n>>24)|0x80, byte(n>>16), byte(n>>8), byte(n))
}

// bindMLSCheck sets $mlsCheck in a JS runtime: commit(base64url, groupId, epoch, external),
// groupInfo(base64url, groupId, epoch, userId) and commitSender(commit, keptGroupInfo, groupInfo)
// (all base64url) answer "" when the data passes, or why not.
func bindMLSCheck(vm *goja.Runtime) {
	decode := func(name, value string) ([]byte, error) {
		data, err := base64.RawURLEncoding.DecodeString(value)
		if err != nil {
			return nil, fmt.Errorf("%s must be MLS data in base64url.", name)
		}
		return data, nil
	}
	answer := func(err error) string {
		if err != nil {
			return err.Error()
		}
		return ""
	}
	obj := vm.NewObject()
	_ = obj.Set("commit", func(value, groupID string, epoch int64, external bool) string {
		data, err := decode("commit", value)
		if err == nil && epoch >= 0 {
			err = checkCommit(data, groupID, uint64(epoch), external)
		}
		return answer(err)
	})
	_ = obj.Set("commitSender", func(commit, current, next string) string {
		data, err := decode("commit", commit)
		var was, now []byte
		if err == nil {
			was, err = decode("the kept group_info", current)
		}
		if err == nil {
			now, err = decode("group_info", next)
		}
		if err == nil {
			err = checkCommitSender(data, was, now)
		}
		return answer(err)
	})
	_ = obj.Set("groupInfo", func(value, groupID string, epoch int64, userID string) string {
		data, err := decode("group_info", value)
		if err == nil && epoch >= 0 {
			err = checkGroupInfo(data, groupID, uint64(epoch), userID)
		}
		return answer(err)
	})
	_ = vm.Set("$mlsCheck", obj)
}
