package gamecode

import "github.com/chessbook/chessbook/gamecode/internal/gamemodel"

// The frozen models (the move model and the tag models with their tables)
// live in internal/gamemodel, shared with the tool that measures and
// trains them (internal/measure); these are the codec's names for them.

// Tag name symbols and byte model classes (see gamemodel).
const (
	nameEnd     = gamemodel.NameEnd
	nameLiteral = gamemodel.NameLiteral
	numNameSyms = gamemodel.NumNameSyms
	classText   = gamemodel.ClassText
	classCode   = gamemodel.ClassCode
	numClasses  = gamemodel.NumClasses
	numCharCtx  = gamemodel.NumCharCtx
	symEnd      = gamemodel.SymEnd
)

// The frozen frequencies of the tag name symbols and of the bytes of tag
// values.
var nameFreq, textFreq = &gamemodel.NameFreq, &gamemodel.TextFreq

// scorer and history are the move model's scorer and memory.
type (
	scorer  = gamemodel.Scorer
	history = gamemodel.History
)

func knownIndex(name []byte) int { return gamemodel.KnownIndex(name) }
func nameOf(sym int) string      { return gamemodel.NameOf(sym) }
func tagClass(name string) int   { return gamemodel.TagClass(name) }
func charCtx(c byte) int         { return gamemodel.CharCtx(c) }
