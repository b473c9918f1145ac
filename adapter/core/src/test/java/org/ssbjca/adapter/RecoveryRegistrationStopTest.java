package org.ssbjca.adapter;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.ssbjca.fakes.LogRecords;

/**
 * The adapter's stop removes its recovery registration from the transaction manager before it closes its databases
 * and releases its drivers ({@link ServiceBrokerResourceAdapter#stop}): a removal that fails is logged and does not
 * end the stop there.
 */
class RecoveryRegistrationStopTest {

    @Test
    void aRemovalThatFailsIsLoggedAndDoesNotThrow() {
        AutoCloseable failing = () -> {
            throw new IllegalStateException("the recovery module refused");
        };
        try (LogRecords logs = LogRecords.of(TransactionManagerRecovery.class)) {
            assertDoesNotThrow(() -> TransactionManagerRecovery.stop(failing), "the rest of stop() runs");
            assertEquals(1, logs.withStackTrace(Level.WARNING, "SSBJCA0210"), "the failure logged with its cause");
        }
    }
}
