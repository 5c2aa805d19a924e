"""Small helpers every stage shares: regular expressions compiled when first used
(patterns) and frozen records that cost little to declare (records)."""
