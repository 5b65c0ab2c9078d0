package bookbeam

// mergeAvailable says whether mergeStores works (book.Merge).
const mergeAvailable = false
