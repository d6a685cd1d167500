; Without --ignore-case, a symbol spelled in another case is undefined, and the note
; suggests the defined spelling.
; cpu: 6502
; error 7:13: undefined symbol 'pout'
; note: did you mean 'POUT'?
        *= $1000
        jsr pout
POUT    rts
