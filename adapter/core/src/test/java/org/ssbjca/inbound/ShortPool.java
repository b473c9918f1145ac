package org.ssbjca.inbound;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import jakarta.resource.spi.work.Work;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.TableRowListener;
import org.ssbjca.backend.DatabaseConfig;

/**
 * What the tests of readers short of the work manager's threads share ({@link ReadersShortOfThreadsTest},
 * {@link WorkManagerFullTest}): the pool's model path the warnings name, an H2 database of their own, beans that do
 * nothing, and a work that holds a thread of the pool.
 */
final class ShortPool {

    /** The WildFly model path of the long-running pool the log messages tell the operator to raise. */
    static final String POOL = "/subsystem=jca/workmanager=default/long-running-threads=default";

    private ShortPool() {
    }

    /** Shortens the wait before the look at the readers' threads ({@link ReaderStarts#waitMillis}) for each test. */
    static final class ShortWait implements org.junit.jupiter.api.extension.BeforeEachCallback,
            org.junit.jupiter.api.extension.AfterEachCallback {
        @Override
        public void beforeEach(org.junit.jupiter.api.extension.ExtensionContext context) {
            ReaderStarts.waitMillis = 300;
        }

        @Override
        public void afterEach(org.junit.jupiter.api.extension.ExtensionContext context) {
            ReaderStarts.waitMillis = ReaderStarts.WAIT_MILLIS;
        }
    }

    /** @param name the database's name, told apart by a random suffix */
    static DatabaseConfig h2(String name) {
        return new DatabaseConfig("jdbc:h2:mem:" + name + "-" + java.util.UUID.randomUUID()
                + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=5000", null, null);
    }

    /** A queue's bean that does nothing. */
    static final class Quiet implements BrokerMessageListener {
        @Override
        public void onMessage(org.ssbjca.api.BrokerMessage m) {
        }
    }

    /** A table's bean that does nothing. */
    static final class QuietRows implements TableRowListener {
        @Override
        public void onRow(org.ssbjca.api.TableRow row) {
        }
    }

    /** Another activation's reader, holding a thread of the pool until released. */
    static final class Blocker implements Work {
        final CountDownLatch running = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public void run() {
            running.countDown();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void release() {
            release.countDown();
        }

        @Override
        public String toString() {
            return "another activation's reader";
        }
    }
}
