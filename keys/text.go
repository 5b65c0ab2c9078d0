package keys

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
)

// Hex returns key in lower-case hexadecimal, two digits per byte.
func Hex(key []byte) string { return hex.EncodeToString(key) }

// Text returns key in URL-safe base64 without padding
// (base64.RawURLEncoding): about 4/3 characters per byte, safe in URLs and
// file names.
func Text(key []byte) string { return base64.RawURLEncoding.EncodeToString(key) }

// ParseCode reads a key written by Hex (either case) or Text and checks
// that it is a valid key (see Decode). A string that is valid in both forms
// is read as hexadecimal if that gives a valid key. For Text output to be
// misread, all its n characters would have to be hex digits (22 of the 64
// base64 characters; probability about 0.34^n, n >= 3) and the hex reading
// would have to be a valid key too, so in practice ParseCode(Text(k)) and
// ParseCode(Hex(k)) both return k.
func ParseCode(s string) ([]byte, error) {
	if len(s)%2 == 0 && isHex(s) {
		if k, err := hex.DecodeString(s); err == nil {
			if _, err := Decode(k); err == nil {
				return k, nil
			}
		}
	}
	k, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		if isHex(s) {
			return nil, fmt.Errorf("%w: %q is neither a key in hex nor in base64: %v", ErrInvalidKey, clip(s), err)
		}
		return nil, fmt.Errorf("%w: %q is not hex or URL-safe base64: %v", ErrInvalidKey, clip(s), err)
	}
	if _, err := Decode(k); err != nil {
		return nil, err
	}
	return k, nil
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func clip(s string) string {
	if len(s) > 4*MaxLen {
		return s[:4*MaxLen] + "..."
	}
	return s
}
