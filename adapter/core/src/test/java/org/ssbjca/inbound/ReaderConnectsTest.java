package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;

/**
 * An activation's readers open their connections together, not one after another: after a deployment, or when the
 * database comes back, every reader delivers as soon as its own connection is open, and the activation reaches its
 * full parallelism after one connect, not {@code maxReaders} of them. The database here makes each reader's connect
 * wait (in H2's {@code INIT}) until every reader is connecting, or {@value #HOLD_SECONDS} s.
 */
public class ReaderConnectsTest {

    private static final int READERS = 4;
    private static final int HOLD_SECONDS = 2;

    /** Set while the test watches the readers' connects; null otherwise (the harness's own connections pass). */
    private static volatile CountDownLatch allConnecting;
    private static final AtomicInteger connecting = new AtomicInteger();
    private static final AtomicInteger mostAtOnce = new AtomicInteger();
    private static final AtomicInteger connected = new AtomicInteger();

    /**
     * Run by H2's {@code INIT} on each new connection, on the connecting thread: holds a reader's own connect (its
     * {@link ReaderConnection} being made) until all are connecting, counting how many are at once.
     */
    public static void connecting() throws InterruptedException {
        CountDownLatch all = allConnecting;
        if (all == null || !StackWalker.getInstance().walk(frames -> frames.anyMatch(f -> f.getClassName()
                .equals(ReaderConnection.class.getName()) && f.getMethodName().equals("<init>")))) {
            return;
        }
        mostAtOnce.accumulateAndGet(connecting.incrementAndGet(), Math::max);
        all.countDown();
        try {
            all.await(HOLD_SECONDS, TimeUnit.SECONDS);
        } finally {
            connecting.decrementAndGet();
            connected.incrementAndGet();
        }
    }

    @Test
    void anActivationsReadersOpenTheirConnectionsTogether() throws Exception {
        String url = "jdbc:h2:mem:reader-connects-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1"
                + ";INIT=CREATE ALIAS IF NOT EXISTS READER_CONNECTING FOR '" + ReaderConnectsTest.class.getName()
                + ".connecting'\\;CALL READER_CONNECTING()";
        try (InboundHarness h = new InboundHarness(url)) {
            List<String> delivered = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> delivered.add(m.bodyAsText());
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders(String.valueOf(READERS));
            allConnecting = new CountDownLatch(READERS);
            try {
                h.activate(BrokerMessageListener.class, bean, true, spec);
                await().atMost(Duration.ofSeconds(READERS * HOLD_SECONDS + 20L))
                        .until(() -> connected.get() >= READERS);
            } finally {
                allConnecting = null;
            }
            assertEquals(READERS, mostAtOnce.get(), "readers connecting at once");

            h.send("after the connects");
            await().atMost(Duration.ofSeconds(20)).until(() -> delivered.contains("after the connects"));
        }
    }
}
