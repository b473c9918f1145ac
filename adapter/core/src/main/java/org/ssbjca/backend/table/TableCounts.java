package org.ssbjca.backend.table;

import java.time.Duration;
import java.time.LocalDateTime;

/**
 * What a table queue holds, read at one moment: rows available now, rows waiting for their availability time, rows
 * leased to a reader, rows set aside (taken {@code maxAttempts} times), rows with no availability time (never taken),
 * and the oldest available row's availability time with the database's clock at the reading.
 *
 * @param available rows a reader would take now
 * @param waiting rows whose availability time lies ahead
 * @param leased rows a reader holds a lease on
 * @param setAside rows taken {@code maxAttempts} times, no longer taken
 * @param oldestAvailable the earliest availability time of an available row (null without an availability column or
 *        with no available row)
 * @param now the database's clock
 * @param unscheduled rows not done whose availability column is NULL: never taken, until the application gives them
 *        a time (0 without an availability column)
 */
public record TableCounts(long available, long waiting, long leased, long setAside, LocalDateTime oldestAvailable,
        LocalDateTime now, long unscheduled) {

    /** Returns how long the oldest available row has been available, or null. */
    public Duration oldestAge() {
        return oldestAvailable == null || now == null ? null : Duration.between(oldestAvailable, now);
    }
}
