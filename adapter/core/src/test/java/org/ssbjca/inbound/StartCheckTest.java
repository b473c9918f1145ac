package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The readers started together share one check that passed; a check that failed or did not run stands for none. */
class StartCheckTest {

    @Test
    void aCheckThatPassedStandsForTheReadersStartedWithIt() throws Exception {
        StartCheck together = new StartCheck();
        AtomicInteger checks = new AtomicInteger();
        Callable<Boolean> passes = () -> {
            checks.incrementAndGet();
            return true;
        };
        assertTrue(together.runUnlessPassed(passes), "the first reader checks");
        assertFalse(together.runUnlessPassed(passes), "the second relies on it");
        assertFalse(together.runUnlessPassed(passes), "and the third");
        assertEquals(1, checks.get());

        assertTrue(new StartCheck().runUnlessPassed(passes), "readers started later check again");
        assertEquals(2, checks.get());
    }

    @Test
    void aCheckThatFailedStandsForNoOne() throws Exception {
        StartCheck together = new StartCheck();
        SQLException down = new SQLException("the database is down");
        AtomicInteger checks = new AtomicInteger();
        assertSame(down, assertThrows(SQLException.class, () -> together.runUnlessPassed(() -> {
            checks.incrementAndGet();
            throw down;
        })));
        assertTrue(together.runUnlessPassed(() -> checks.incrementAndGet() > 0), "the next reader checks");
        assertFalse(together.runUnlessPassed(() -> checks.incrementAndGet() > 0));
        assertEquals(2, checks.get());
    }

    @Test
    void aCheckThatDidNotRunStandsForNoOne() throws Exception {
        StartCheck together = new StartCheck();
        AtomicInteger checks = new AtomicInteger();
        assertFalse(together.runUnlessPassed(() -> {
            checks.incrementAndGet();
            return false; // its reader was stopped first
        }));
        assertTrue(together.runUnlessPassed(() -> checks.incrementAndGet() > 0), "the next reader checks");
        assertEquals(2, checks.get());
    }
}
