// Package cli holds what both commands, bookbuild and bookquery, do the
// same way with their command lines.
package cli

import "flag"

// Parse parses args with fs, taking flags anywhere among the positional
// arguments ("bookbuild FILE -db DIR" as well as "bookbuild -db DIR
// FILE"); "--" ends the flags, so that a positional argument may start
// with a dash. Afterwards fs.Args() holds the positional arguments, in
// their order. A lone "-" (standard input) is a positional argument.
func Parse(fs *flag.FlagSet, args []string) error {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			pos = append(pos, rest...)
			break
		}
		if len(rest) == 0 {
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	return fs.Parse(append([]string{"--"}, pos...))
}
