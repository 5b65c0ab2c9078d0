package store

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/keys"
	"github.com/cockroachdb/pebble/v2"
)

// setRawMeta replaces the Meta record of the store in dir with m's JSON
// edited by edit (fields deleted or set as raw values).
func setRawMeta(t *testing.T, dir string, edit func(map[string]any)) {
	t.Helper()
	s := mustOpen(t, dir, buildOpts())
	m := s.Meta()
	raw, err := m.marshal()
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]any
	if err := json.Unmarshal(raw, &fields); err != nil {
		t.Fatal(err)
	}
	edit(fields)
	if raw, err = json.Marshal(fields); err != nil {
		t.Fatal(err)
	}
	if err := s.db.Set([]byte(metaKey), raw, pebble.Sync); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestMetaKeyFormatAndVariant: a new store records the key format and the
// variant; a store written before them reads as the current key format and
// standard; a store naming a newer key format or an unknown variant is
// refused with an error naming the store and both values.
func TestMetaKeyFormatAndVariant(t *testing.T) {
	t.Run("new store", func(t *testing.T) {
		dir := t.TempDir()
		s := mustOpen(t, dir, buildOpts())
		m := s.Meta()
		raw, closer, err := s.db.Get([]byte(metaKey))
		if err != nil {
			t.Fatal(err)
		}
		stored := string(raw)
		_ = closer.Close()
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if m.KeyFormat != keys.FormatVersion || m.Variant != VariantStandard {
			t.Errorf("key format %d, variant %q; want %d, %q", m.KeyFormat, m.Variant, keys.FormatVersion, VariantStandard)
		}
		if !strings.Contains(stored, `"key_format":1`) || !strings.Contains(stored, `"variant":"standard"`) {
			t.Errorf("meta record %s lacks the key format or the variant", stored)
		}
	})
	t.Run("older store", func(t *testing.T) {
		dir := t.TempDir()
		setRawMeta(t, dir, func(f map[string]any) { delete(f, "key_format"); delete(f, "variant") })
		for _, opts := range []Options{buildOpts(), {ReadOnly: true}} {
			s := mustOpen(t, dir, opts)
			m := s.Meta()
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if m.KeyFormat != keys.FormatVersion || m.Variant != VariantStandard {
				t.Errorf("key format %d, variant %q; want %d, %q", m.KeyFormat, m.Variant, keys.FormatVersion, VariantStandard)
			}
		}
	})
	for _, tc := range []struct {
		name, field, value string
		set                any
	}{
		{"newer key format", "key format", "2", keys.FormatVersion + 1},
		{"unknown variant", "variant", `"chess960"`, "chess960"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			key := map[string]string{"key format": "key_format", "variant": "variant"}[tc.field]
			setRawMeta(t, dir, func(f map[string]any) { f[key] = tc.set })
			for _, opts := range []Options{buildOpts(), {}, {ReadOnly: true}} {
				_, err := Open(dir, opts)
				var ie *IncompatibleError
				if !errors.As(err, &ie) || ie.Field != tc.field || !errors.Is(err, ErrIncompatible) {
					t.Fatalf("err = %v, want an IncompatibleError on the %s", err, tc.field)
				}
				msg := err.Error()
				if !strings.Contains(msg, dir) || !strings.Contains(msg, "the store has "+tc.value) || !strings.Contains(msg, "newer chessbook") {
					t.Errorf("err = %q, want the store, its %s %s and a hint", msg, tc.field, tc.value)
				}
			}
		})
	}
	t.Run("unknown variant asked for", func(t *testing.T) {
		opts := buildOpts()
		opts.Meta.Variant = "chess960"
		if _, err := Open(t.TempDir(), opts); err == nil || !strings.Contains(err.Error(), `unknown variant "chess960"`) {
			t.Errorf("err = %v, want unknown variant", err)
		}
	})
}

// TestMetaSameVariant: stores of two variants or key formats do not merge.
func TestMetaSameVariant(t *testing.T) {
	std := Meta{KeyFormat: 1, Variant: VariantStandard}
	old := Meta{} // written before the fields: standard, key format 1
	if err := std.SameVariant("a", &old, "b"); err != nil {
		t.Errorf("standard and an older store: %v", err)
	}
	for _, o := range []Meta{{KeyFormat: 1, Variant: "chess960"}, {KeyFormat: 2, Variant: VariantStandard}} {
		err := std.SameVariant("a", &o, "b")
		if err == nil || !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), `b variant "`+o.Variant+`"`) {
			t.Errorf("%+v: err = %v, want one naming b's variant", o, err)
		}
	}
}
