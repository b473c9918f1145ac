package org.ssbjca.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** {@link PgCounters#perMessageSince}: each counter's growth over a run, per message. */
class PgCountersTest {

    /** 1,000 messages, 2,000 commits, 1,000 prepares, 1,500 flushes: 2, 1 and 1.5 per message. */
    @Test
    void eachCounterGrowsPerMessage() {
        PgCounters before = new PgCounters(10, 5, 100, 200, 3_000);
        PgCounters after = new PgCounters(2_010, 1_005, 1_600, 2_200, 13_000);
        assertEquals(new PgCounters.PerMessage(2, 1, 1.5, 2, 10), after.perMessageSince(before, 1_000));
        assertEquals("per message: 2.00 transactions committed, 1.00 PREPARE TRANSACTION, 1.50 WAL flushes (wal_sync),"
                + " 2.00 WAL writes, 10.0 WAL records", after.perMessageSince(before, 1_000).text());
    }
}
