"""Small helpers every stage shares: regular expressions compiled when first used
(patterns), frozen records that cost little to declare (records) and the joining of
words in messages (words)."""
