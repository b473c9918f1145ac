package org.ssbjca.inbound;

import java.time.Duration;
import java.util.Timer;
import java.util.logging.Level;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.ssbjca.fakes.LogRecords;
import org.ssbjca.support.AdapterLog;

/**
 * The look at an activation's readers runs on the adapter's one timer, which every activation shares: a look that
 * throws must not end it, or every later look (another activation's, a raise of MaxReaders) is lost.
 */
class ReaderStartsTest {

    @AfterEach
    void usualWait() {
        ReaderStarts.waitMillis = ReaderStarts.WAIT_MILLIS;
    }

    @Test
    void aLookThatFailsIsLoggedAndLaterLooksStillWarn() {
        ReaderStarts.waitMillis = 50;
        Timer timer = new Timer(true);
        AdapterLog category = AdapterLog.of(ReaderStartsTest.class);
        try (LogRecords log = LogRecords.of(ReaderStartsTest.class)) {
            new ReaderStarts(category, "Broken@Queue", () -> 2, () -> {
                throw new IllegalStateException("the readers cannot be counted");
            }).added(timer);
            Awaitility.await("the failed look logged").atMost(Duration.ofSeconds(30))
                    .until(() -> !log.messages(Level.WARNING, "SSBJCA0016").isEmpty());

            new ReaderStarts(category, "Other@Queue", () -> 2, () -> 1).added(timer);
            Awaitility.await("another activation's look warns on the same timer").atMost(Duration.ofSeconds(30))
                    .until(() -> log.messages(Level.WARNING, "SSBJCA0014").stream()
                            .anyMatch(m -> m.contains("Other@Queue") && m.contains("1 reader(s) running")));
        } finally {
            timer.cancel();
        }
    }
}
