package gamedb

// Version is the version of the game index's format, recorded in the
// store's Meta (store.Meta.GameIndex) when the index covers every game.
const Version = 1
