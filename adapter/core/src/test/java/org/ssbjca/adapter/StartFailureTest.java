package org.ssbjca.adapter;

import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.XATerminator;
import jakarta.resource.spi.work.WorkContext;
import jakarta.resource.spi.work.WorkManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.List;
import java.util.Timer;
import java.util.TimerTask;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.ssbjca.fakes.FakeWorkManager;

/**
 * The container calls no {@code stop()} after a {@code start()} that threw: what the start made must not outlive it.
 * The adapter's timer (a thread of the container's, running the adapter's tasks) would keep the RAR's class loader.
 */
class StartFailureTest {

    @Test
    void aStartThatFailsLeavesNoTimerRunning() {
        List<Timer> timers = new CopyOnWriteArrayList<>();
        ServiceBrokerResourceAdapter ra = new ServiceBrokerResourceAdapter();
        ra.setConnectionUrl("jdbc:h2:mem:start-failure-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

        assertThrows(IllegalStateException.class, () -> ra.start(new FailingContext(timers)));

        for (Timer t : timers) {
            assertThrows(IllegalStateException.class, () -> t.schedule(noop(), 0),
                    "the timer of a start that failed still runs");
        }
    }

    private static TimerTask noop() {
        return new TimerTask() {
            @Override
            public void run() {
            }
        };
    }

    /** Fails the start after the work manager: as the transaction manager's recovery or the MBean server could. */
    private static final class FailingContext implements BootstrapContext {
        private final List<Timer> timers;

        FailingContext(List<Timer> timers) {
            this.timers = timers;
        }

        @Override
        public WorkManager getWorkManager() {
            return new FakeWorkManager();
        }

        @Override
        public XATerminator getXATerminator() {
            return null;
        }

        @Override
        public Timer createTimer() {
            Timer t = new Timer(true);
            timers.add(t);
            return t;
        }

        @Override
        public boolean isContextSupported(Class<? extends WorkContext> type) {
            return false;
        }

        @Override
        public TransactionSynchronizationRegistry getTransactionSynchronizationRegistry() {
            throw new IllegalStateException("no transaction registry");
        }
    }
}
