; Relative jumps out of range, with the distance.
; cpu: z80
; error 8:14: DJNZ out of range: the target is -133 bytes away
; error 9:12: relative jump out of range: the target is 202 bytes away
; error 10:12: relative jump out of range: the target is 4094 bytes away
here:   nop
        ds 130
        djnz here
        jr far
        jr $+4096
        ds 200
far:    nop
