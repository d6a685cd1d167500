; A .DEFINE macro that calls itself stops at the depth limit, as a MACRO does; the
; expansion's lines show where they come from.
; cpu: z80
; option: dialect tdl
; error 7:25: macro calls nested more than 64 deep (does 'AGAIN' call itself?)
; note: in macro 'AGAIN' called at
        .DEFINE AGAIN=[ AGAIN]
        AGAIN
