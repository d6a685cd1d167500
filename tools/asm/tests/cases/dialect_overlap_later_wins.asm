; --overlap later-wins: a table assembled over the end of another keeps the later bytes, with
; a warning naming both lines (the published Sargon listing relies on this, as zmac does).
; cpu: z80
; option: overlap later-wins
; warning 11:12: overwrites $1002, which
; note: dialect_overlap_later_wins.asm:9: the earlier line that filled $1002
; bytes: 01 02 AA BB
        org $1000
        db 1,2,3,4
        org $1002
        db $AA,$BB
