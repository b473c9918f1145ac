package org.ssbjca.inbound.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.TableRow;

/** The in-memory holds of a table activation's failed rows, without a database. */
class HeldRowsTest {

    private static TableRow row(Object key) {
        return new TableRow("T", key, "p", null, null, 1, null);
    }

    @Test
    void aRowIsHeldWhileItsFailureIsCountedAndThenForItsDelay() {
        HeldRows held = new HeldRows();
        TableRow a = row(1L);
        held.counting(List.of(a));
        assertTrue(held.anyHeld(List.of(a)), "held before its rollback");
        assertEquals(1, held.failed(a, 0));
        assertEquals(List.of(1L), held.keys(), "still counting");
        held.counted(List.of(a));
        assertEquals(List.of(), held.keys(), "no delay: free once counted");
        assertFalse(held.isEmpty(), "still remembered as failing");
        assertEquals(2, held.failed(a, 60));
        assertEquals(List.of(1L), held.keys(), "held for its delay");
        held.forget(List.of(a));
        assertEquals(List.of(), held.keys());
        assertEquals(1, held.failed(a, 60), "counted afresh after a success");
    }

    /** A delivery whose outcome is not known: its rows were held while counting, then let go without a delay. */
    @Test
    void aRowLetGoWithoutAFailureIsNotHeld() {
        HeldRows held = new HeldRows();
        TableRow a = row("k");
        held.counting(List.of(a));
        held.counted(List.of(a));
        assertFalse(held.anyHeld(List.of(a)));
        assertEquals(List.of(), held.keys());
    }

    @Test
    void byteArrayKeysAreHeldByTheirContent() {
        HeldRows held = new HeldRows();
        held.failed(row(new byte[] {1, 2}), 60);
        assertTrue(held.anyHeld(List.of(row(new byte[] {1, 2}))));
        assertFalse(held.anyHeld(List.of(row(new byte[] {1, 3}))));
    }

    @Test
    void aTakingLeavesOutAtMost256KeysThoseBeingCountedFirst() {
        HeldRows held = new HeldRows();
        List<TableRow> rows = new ArrayList<>();
        for (long i = 0; i < 300; i++) {
            rows.add(row(i));
            held.failed(rows.get((int) i), 60);
        }
        held.counting(List.of(rows.get(0)));
        List<Object> keys = held.keys();
        assertEquals(HeldRows.MAX_IN_STATEMENT, keys.size());
        assertEquals(0L, keys.get(0), "the row whose failure is being counted first");
        assertTrue(held.anyHeld(List.of(rows.get(299))), "a row beyond them is still held");
    }
}
