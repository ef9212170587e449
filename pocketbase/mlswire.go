// A reader of the TLS presentation language as MLS uses it (RFC 9420 §2.1.2): fixed-size integers and
// vectors with a variable-length (1, 2 or 4 byte) length prefix. Used by mlscheck.go to look at what
// members send the delivery service; it reads, it never decrypts.
package main

import (
	"encoding/binary"
	"errors"
)

var errTruncated = errors.New("truncated")

// mlsReader reads one value after another from buf; the first failure sticks (err), so a parse can
// read a whole struct and check err once.
type mlsReader struct {
	buf []byte
	pos int
	err error
}

func (r *mlsReader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *mlsReader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || len(r.buf)-r.pos < n {
		r.fail(errTruncated)
		return nil
	}
	out := r.buf[r.pos : r.pos+n]
	r.pos += n
	return out
}

func (r *mlsReader) u8() uint8 {
	b := r.take(1)
	if b == nil {
		return 0
	}
	return b[0]
}

func (r *mlsReader) u16() uint16 {
	b := r.take(2)
	if b == nil {
		return 0
	}
	return binary.BigEndian.Uint16(b)
}

func (r *mlsReader) u32() uint32 {
	b := r.take(4)
	if b == nil {
		return 0
	}
	return binary.BigEndian.Uint32(b)
}

func (r *mlsReader) u64() uint64 {
	b := r.take(8)
	if b == nil {
		return 0
	}
	return binary.BigEndian.Uint64(b)
}

// varLen reads a variable-length vector's length prefix (RFC 9420 §2.1.2; the minimal encoding).
func (r *mlsReader) varLen() int {
	first := r.u8()
	if r.err != nil {
		return 0
	}
	switch first >> 6 {
	case 0:
		return int(first & 0x3f)
	case 1:
		n := int(first&0x3f)<<8 | int(r.u8())
		if r.err == nil && n < 64 {
			r.fail(errors.New("length not minimally encoded"))
		}
		return n
	case 2:
		rest := r.take(3)
		if rest == nil {
			return 0
		}
		n := int(first&0x3f)<<24 | int(rest[0])<<16 | int(rest[1])<<8 | int(rest[2])
		if n < 16384 {
			r.fail(errors.New("length not minimally encoded"))
		}
		return n
	}
	r.fail(errors.New("invalid length prefix"))
	return 0
}

// opaque reads an opaque<V>.
func (r *mlsReader) opaque() []byte {
	return r.take(r.varLen())
}

// vector reads a T<V>: each element is read by item from a reader over the vector's bytes, which
// must be used up exactly.
func (r *mlsReader) vector(item func(*mlsReader)) {
	inner := &mlsReader{buf: r.opaque()}
	if r.err != nil {
		return
	}
	for inner.err == nil && inner.pos < len(inner.buf) {
		item(inner)
	}
	r.fail(inner.err)
}

// extensions reads Extension extensions<V> (uint16 type, opaque data<V>), calling found for each.
func (r *mlsReader) extensions(found func(kind uint16, data []byte)) {
	r.vector(func(x *mlsReader) {
		kind := x.u16()
		data := x.opaque()
		if x.err == nil && found != nil {
			found(kind, data)
		}
	})
}

// done fails unless every byte was read.
func (r *mlsReader) done() error {
	if r.err == nil && r.pos != len(r.buf) {
		r.fail(errors.New("trailing bytes"))
	}
	return r.err
}
