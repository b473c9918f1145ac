package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.inbound.InboundHarness;

/**
 * A transaction timeout rolls a delivery's branch back on the transaction manager's thread, which tells the session
 * (afterCompletion) while the bean may still be sending on the reader's thread: the queues the session remembers to
 * wake must survive both at once.
 */
class TouchedQueuesRaceTest {

    @Test
    void aCompletionOnAnotherThreadWhileTheSessionSendsFailsNeither() throws Exception {
        try (InboundHarness h = new InboundHarness(); Connection c = h.db.source().open()) {
            BrokerSession session = h.db.broker().session(c);
            Conversation conversation = session.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET,
                    InboundHarness.CONTRACT, DialogOptions.defaults());
            AtomicBoolean sending = new AtomicBoolean(true);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread transactionManager = new Thread(() -> {
                while (sending.get() && failure.get() == null) {
                    try {
                        session.afterCompletion(true);
                        session.afterCompletion(false);
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    }
                }
            }, "transaction-timeout");
            transactionManager.start();
            try {
                byte[] body = "x".getBytes(StandardCharsets.UTF_8);
                long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(4);
                for (int i = 0; i < 6000 && failure.get() == null && System.nanoTime() < until; i++) {
                    try {
                        session.send(conversation.handle(), InboundHarness.REQUEST, body);
                    } catch (RuntimeException e) {
                        failure.compareAndSet(null, e);
                    }
                }
            } finally {
                sending.set(false);
                transactionManager.join(10_000);
                c.rollback();
            }
            assertNull(failure.get(), () -> "a thread failed: " + failure.get());
        }
    }
}
