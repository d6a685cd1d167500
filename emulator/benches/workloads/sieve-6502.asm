; Benchmark workload for the 6502: the BYTE sieve of Eratosthenes over 8192 flags, repeated
; ITERS times. Flag i stands for the odd number 2i+3; 1899 of them are prime.
; Runs on Kempelen's default 6502 map (RAM $0000-$BEFF, I/O $BF00-$BFFF, ROM $C000-$FFFF)
; and ends with the host call "done" ($BFFF). The bytes are in emulator/src/bench.rs.
ITERS   = 60
ptr     = $00                   ; -> flag i
prime   = $02
q       = $04                   ; -> flag being crossed out
count   = $06                   ; passes left
primes  = $08                   ; primes found by the last pass
FLAGS   = $2000                 ; 8192 flags, $2000-$3FFF
HOST    = $BFFF

        * = $C000
start   lda #<ITERS
        sta count
        lda #>ITERS
        sta count+1
loop    jsr sieve
        lda count
        bne l1
        dec count+1
l1      dec count
        lda count
        ora count+1
        bne loop
        sta HOST                ; A = 0: host call "done"

sieve   lda #<FLAGS             ; set every flag
        sta ptr
        lda #>FLAGS
        sta ptr+1
        ldy #0
        lda #1
fill    sta (ptr),y
        iny
        bne fill
        inc ptr+1
        ldx ptr+1
        cpx #$40
        bne fill
        lda #0
        sta primes
        sta primes+1
        lda #>FLAGS
        sta ptr+1               ; ptr = FLAGS (low byte is 0)
outer   ldy #0
        lda (ptr),y
        beq next
        lda ptr+1               ; prime = 2 * (ptr - FLAGS) + 3
        sec
        sbc #>FLAGS
        sta prime+1
        lda ptr
        asl a
        sta prime
        rol prime+1
        clc
        lda prime
        adc #3
        sta prime
        bcc l2
        inc prime+1
l2      clc                     ; q = ptr + prime
        lda ptr
        adc prime
        sta q
        lda ptr+1
        adc prime+1
        sta q+1
inner   lda q+1
        cmp #$40                ; past the flags?
        bcs counted
        lda #0
        sta (q),y
        clc
        lda q
        adc prime
        sta q
        lda q+1
        adc prime+1
        sta q+1
        jmp inner
counted inc primes
        bne next
        inc primes+1
next    inc ptr
        bne l3
        inc ptr+1
l3      lda ptr+1
        cmp #$40
        bne outer
        rts

        * = $FFFA
        .word start, start, start
