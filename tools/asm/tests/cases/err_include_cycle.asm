; A file that ends up including itself.
; cpu: z80
; error inc/cycle_b.inc:1:17: include cycle
        include "inc/cycle_a.inc"
