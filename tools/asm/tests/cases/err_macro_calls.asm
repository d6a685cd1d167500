; Macro argument count, recursion without end.
; cpu: z80
; error 12:9: macro 'pair' takes 2 arguments (a_, b_), 1 given
; error 10:9: macro calls nested more than 64 deep
; note: in macro 'forever' called at
pair    macro a_, b_
        db a_, b_
        endm
forever macro
        forever
        endm
        pair 1
        forever
