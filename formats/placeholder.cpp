// Replaced by the format v1 implementation.
