package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class PriorityScannerTest {

    @Test
    void readsThePriorityFromXmlOrPlainText() {
        assertEquals(90, PriorityScanner.parse(bytes("<priority>90</priority>")));
        assertEquals(7, PriorityScanner.parse(bytes("<p xmlns='urn:x'> 7 </p>")));
        assertEquals(255, PriorityScanner.parse(bytes("255")));
        assertEquals(0, PriorityScanner.parse(bytes("0")));
        byte[] utf16 = "\uFEFF<priority>12</priority>".getBytes(StandardCharsets.UTF_16LE);
        assertEquals(12, PriorityScanner.parse(utf16), "T-SQL's XML casts produce UTF-16 with a byte order mark");
    }

    @Test
    void refusesWhatIsNotAPriority() {
        assertNull(PriorityScanner.parse(bytes("<priority>256</priority>")));
        assertNull(PriorityScanner.parse(bytes("<priority>-1</priority>")));
        assertNull(PriorityScanner.parse(bytes("<priority>high</priority>")));
        assertNull(PriorityScanner.parse(bytes("")));
        assertNull(PriorityScanner.parse(bytes("<!DOCTYPE x [<!ENTITY e 'x'>]><priority>&e;</priority>")));
    }

    @Test
    void whileOneReaderScansNoOtherClaimsAndTheOthersWaitForIt() throws Exception {
        PriorityScanner scanner = new PriorityScanner("q", "SetPriority");
        assertTrue(scanner.awaitScan(), "no scan runs: no wait");
        assertTrue(scanner.claimScan(1), "the first scan is due at once");
        assertFalse(scanner.claimScan(2), "one scan at a time");
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return scanner.awaitScan();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThrows(TimeoutException.class, () -> waiting.get(100, TimeUnit.MILLISECONDS),
                "a reader waits while the scan runs");

        scanner.scanEnded();

        assertTrue(waiting.get(PriorityScanner.SCAN_WAIT_MILLIS, TimeUnit.MILLISECONDS), "released by the scan's end");
        assertTrue(scanner.awaitScan());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
