; Directives of other 6502 assemblers: ASC (a string of bytes, as in Bill Forster's
; Microchess), CPU naming the CPU assembled for, PAGE (a listing page break), ca65's
; .EXPORT (every symbol is in the symbol file anyway) and .FEATURE for the syntax Kempelen
; always accepts, .IMPORT of a name this program defines.
; cpu: 6502
; bytes: 41 42 43 EA 4C 00 10
        cpu 6502
        page 0,132
.feature labels_without_colons +
.export  start
.import  helper
        *= $1000
start   asc "ABC"
helper  nop
        jmp start
