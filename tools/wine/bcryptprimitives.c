/*
 * A one-function stand-in for bcryptprimitives.dll, for Wine versions that
 * lack it (Wine 8): Rust's standard library on Windows imports ProcessPrng
 * from it for its random numbers (HashMap keys). This forwards to
 * RtlGenRandom (SystemFunction036 in advapi32), which Wine has.
 *
 * Built by tools/wine/setup.sh with mingw; never shipped.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x7fffffff ? 0x7fffffff : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
