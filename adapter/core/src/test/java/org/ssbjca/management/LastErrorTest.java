package org.ssbjca.management;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ssbjca.management.Jmx.SERVER;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.management.openmbean.CompositeData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.inbound.InboundBackends;
import org.ssbjca.inbound.InboundHarness;
import org.ssbjca.inbound.ServiceBrokerActivationSpec;

/**
 * {@code LastError} and {@code LastErrorTime}: the latest failed delivery or reader failure (a lost connection, a
 * disabled queue), with when it happened; none before the first, and a later success does not clear it.
 */
class LastErrorTest {

    private static final String FAILED = "java.lang.IllegalStateException: fail refused";

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void theLatestFailedDeliveryIsTheLastErrorAndASuccessLeavesIt(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            ActivationMXBean mx = activate(h);
            assertNull(mx.getLastError(), "no error yet");
            assertNull(mx.getLastErrorTime());

            Date first = failDelivery(h, mx, "fail 1", 1);
            h.send("ok");
            await("ok delivered").until(() -> mx.getCommitted() == 2);
            assertEquals("java.lang.IllegalStateException: fail 1 refused", mx.getLastError(), "a success leaves it");
            assertEquals(first, mx.getLastErrorTime());

            Date second = failDelivery(h, mx, "fail 2", 2);
            assertFalse(second.before(first));
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aDisabledQueueAfterAFailedDeliveryIsTheLastError(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            ActivationMXBean mx = activate(h);
            failDelivery(h, mx, "fail", 1);
            Date before = new Date();

            h.admin(a -> a.setQueueEnabled(InboundHarness.TARGET_QUEUE, false));

            // the portable schema's own statement, not SQL Server's ALTER QUEUE
            String disabled = "queue " + InboundHarness.TARGET_QUEUE + " is disabled: enable it with UPDATE"
                    + " ssb.service_queue SET is_receive_enabled = TRUE WHERE queue_name = '"
                    + InboundHarness.TARGET_QUEUE + "'";
            await("the disabled queue reported").until(() -> mx.isQueueDisabled());
            assertEquals(disabled, mx.getLastError());
            assertWithin(before, mx.getLastErrorTime());
        }
    }

    /**
     * PostgreSQL ends the reader's session while it waits in its RECEIVE (pg_terminate_backend): the failure it
     * reconnects after is the last error, the one its {@code reader.reconnecting} notification carries.
     */
    @ParameterizedTest(name = "transacted {0}")
    @ValueSource(booleans = {true, false})
    void aConnectionLostWhileWaitingIsTheLastError(boolean transacted) throws Exception {
        try (InboundHarness h = InboundBackends.harness("PostgreSQL")) {
            ActivationMXBean mx = activate(h, transacted);
            List<String> notified = reconnectErrors(mx);
            failDelivery(h, mx, "fail", 1);
            // the reader's next transaction moves the refused message to the dead letters (maxDeliveryAttempts 1):
            // once it committed, the reader waits in its RECEIVE, where the session is to end (not in that commit)
            await("the refused message dead-lettered").until(() -> mx.getDeadLettered() == 1);
            Date before = new Date();

            terminateOtherSessions(h);

            await("lost, then reconnected").until(() -> !notified.isEmpty() && mx.getReconnectingReaders() == 0);
            assertTheLostConnectionIsTheLastError(mx, notified, before);
            assertTrue(mx.getLastError().endsWith("failed: FATAL: terminating connection due to administrator command"),
                    "the server's word, from the first statement on the ended session, not the failure of the "
                    + "rollback after it: " + mx.getLastError());
            h.send("after");
            await("delivered on the new connection").until(() -> mx.getCommitted() == 2);
        }
    }

    /**
     * The bean ends its own reader's session ("cut", the first time), so that the delivery's commit fails: the
     * failure the reader reconnects after is the last error; the message is delivered again on the new connection.
     */
    @Test
    void aConnectionLostDuringADeliveryIsTheLastError() throws Exception {
        try (InboundHarness h = InboundBackends.harness("PostgreSQL")) {
            ActivationMXBean mx = activate(h);
            List<String> notified = reconnectErrors(mx);
            failDelivery(h, mx, "fail", 1);
            Date before = new Date();

            h.send("cut");

            await("lost, then delivered again").until(() -> !notified.isEmpty() && mx.getCommitted() == 2);
            assertTheLostConnectionIsTheLastError(mx, notified, before);
            assertTrue(mx.getLastError().contains("commit"), "the failed commit: " + mx.getLastError());
        }
    }

    /** @return the MBean of a one-reader activation whose bean refuses "fail..." and ends its session at "cut" */
    private static ActivationMXBean activate(InboundHarness h) throws Exception {
        return activate(h, true);
    }

    /**
     * @param transacted whether the bean's delivery runs in the container's transaction (XA), else in the reader's
     *        local one
     */
    private static ActivationMXBean activate(InboundHarness h, boolean transacted) throws Exception {
        AtomicBoolean cut = new AtomicBoolean();
        BrokerMessageListener bean = m -> {
            if (m.bodyAsText().startsWith("fail")) {
                throw new IllegalStateException(m.bodyAsText() + " refused");
            }
            if (m.bodyAsText().equals("cut") && !cut.getAndSet(true)) {
                terminateOtherSessions(h);
            }
        };
        ServiceBrokerActivationSpec spec = h.spec();
        spec.setMaxDeliveryAttempts("1");
        // no priority scans: a reader whose session ended finds it so in its next RECEIVE, not in a scan that the
        // notification listener's reconnect may set off first
        spec.setPriorityEnabled("false");
        h.activate(BrokerMessageListener.class, bean, transacted, spec);
        return Jmx.proxy(Jmx.onlyActivation(h));
    }

    /**
     * Sends a body the bean refuses and checks that its failure is the last error, timed when it happened.
     *
     * @param rolledBack the rollbacks once it failed
     * @return its LastErrorTime
     */
    private static Date failDelivery(InboundHarness h, ActivationMXBean mx, String body, int rolledBack)
            throws InterruptedException {
        Date before = new Date();
        h.send(body);
        await(body + " rolled back").until(() -> mx.getRolledBack() == rolledBack);
        assertEquals("java.lang.IllegalStateException: " + body + " refused", mx.getLastError());
        Date at = mx.getLastErrorTime();
        assertWithin(before, at);
        return at;
    }

    /** @return the errors of the activation's {@code reader.reconnecting} notifications, as they come */
    private static List<String> reconnectErrors(ActivationMXBean mx) throws Exception {
        List<String> errors = new CopyOnWriteArrayList<>();
        SERVER.addNotificationListener(ObjectNames.activation(mx.getName()), (n, handback) -> {
            if (n.getType().equals(ActivationNotifications.RECONNECTING)) {
                errors.add(String.valueOf(((CompositeData) n.getUserData()).get("error")));
            }
        }, null, null);
        return errors;
    }

    private static void assertTheLostConnectionIsTheLastError(ActivationMXBean mx, List<String> notified,
            Date before) {
        String error = mx.getLastError();
        assertNotNull(error, "LastError after a lost connection (LastErrorTime " + mx.getLastErrorTime() + ")");
        assertNotEquals(FAILED, error, "the lost connection came after the failed delivery");
        assertEquals(notified.get(notified.size() - 1), error, "the error the reader reconnected after");
        assertWithin(before, mx.getLastErrorTime());
    }

    /** Ends every other session on the harness's PostgreSQL database: the reader's and the listener's. */
    private static void terminateOtherSessions(InboundHarness h) {
        h.tx(s -> {
            try (PreparedStatement ps = s.connection().prepareStatement("SELECT pg_terminate_backend(pid) FROM"
                    + " pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")) {
                ps.execute();
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            return null;
        });
    }

    /** Asserts that {@code at} is not before {@code before} nor in the future. */
    private static void assertWithin(Date before, Date at) {
        assertFalse(at.before(before) || at.after(new Date()), at + " not between " + before + " and now");
    }
}
