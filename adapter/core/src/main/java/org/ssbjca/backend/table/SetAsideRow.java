package org.ssbjca.backend.table;

/**
 * A row set aside (taken {@code maxAttempts} times, or by the failure policy), as an operator sees it.
 *
 * @param key the row's key, as the driver returns it
 * @param error its last failure's error from the {@code errorColumn}; null without one, or when none was written
 * @param failedAt when that error was written, from the {@code errorTimeColumn} (the database's clock, read as the
 *        driver reads a timestamp); null without one, or when none was written
 */
public record SetAsideRow(Object key, String error, java.time.Instant failedAt) {
}
