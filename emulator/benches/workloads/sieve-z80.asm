; Benchmark workload for the Z80: the BYTE sieve of Eratosthenes over 8192 flags, repeated
; ITERS times. Flag i stands for the odd number 2i+3; 1899 of them are prime.
; Runs on Kempelen's default Z80 map (ROM $0000-$3FFF, RAM $4000-$FFFF, SP = $0000) and ends
; with the host call "done". The bytes are in emulator/src/bench.rs.
ITERS   EQU 200
COUNT   EQU $4000               ; passes left
PRIMES  EQU $4002               ; primes found by the last pass
FLAGS   EQU $8000               ; 8192 flags, $8000-$9FFF

        ORG $0000
start:  LD HL,ITERS
        LD (COUNT),HL
loop:   CALL sieve
        LD HL,(COUNT)
        DEC HL
        LD (COUNT),HL
        LD A,H
        OR L
        JR NZ,loop
        XOR A
        OUT ($FF),A             ; host call: done

sieve:  LD HL,FLAGS             ; set every flag
        LD DE,FLAGS+1
        LD BC,8191
        LD (HL),1
        LDIR
        LD IX,0                 ; primes found
        LD DE,FLAGS             ; DE -> flag i
outer:  LD A,(DE)
        OR A
        JR Z,next
        LD H,D                  ; HL = 2 * DE = 2i (mod $10000)
        LD L,E
        ADD HL,HL
        INC HL
        INC HL
        INC HL                  ; HL = prime = 2i + 3
        LD B,H
        LD C,L
        ADD HL,DE               ; HL -> flag i + prime
inner:  LD A,H
        CP $A0                  ; past the flags?
        JR NC,counted
        LD (HL),0
        ADD HL,BC
        JR inner
counted:INC IX
next:   INC DE
        LD A,D
        CP $A0
        JR C,outer
        LD (PRIMES),IX
        RET
