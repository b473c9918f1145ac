package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.TestAdmin;
import org.ssbjca.conformance.PostgresServer;

/**
 * PostgreSQL's RECEIVE from a whole queue ({@link PortableSql#receiveNext}) locks the group it takes and deletes
 * the messages it takes; it locks no other message. It locked the messages it picked (the one more than TOP it looks
 * at included) before: replayed by pgbench (4 clients, fsync on), 380 to 424 µs of PostgreSQL CPU per message taken
 * with the locks, 316 to 352 without.
 * <p>
 * The statement sees one snapshot, taken before it locks the group, so the messages it picks may have been deleted
 * meanwhile by a transaction that committed (an END CONVERSATION, which holds the conversation, not its group; or the
 * RECEIVE that held the group). It then takes what is left, and when that leaves it nothing while the queue still has
 * messages, it looks again: a RECEIVE never comes back empty from a queue with messages it may take. A group that a
 * RECEIVE released after the statement's snapshot counts as still held (as if this RECEIVE had looked a moment
 * earlier): passed over, not taken and found emptied.
 */
class ReceiveRowLocksTest {

    @Test
    void aReceiveLocksNoMessageItDoesNotTake() throws Exception {
        DatabaseConfig db = PostgresServer.get().newDatabase("receive_row_locks");
        ConnectionSource source = new ConnectionSource(db);
        try (PortableBroker broker = new PortableBroker(source, BackgroundRunner.daemonThreads(),
                PortableOptions.defaults()); Connection reader = source.open(); Connection other = source.open()) {
            IdleGroupsReceiveTest.declare(broker, reader);
            for (int top : new int[] {1, 3}) {
                IdleGroupsReceiveTest.send(broker, reader, 1, top + 3);
                BrokerSession s = broker.session(reader);
                List<BrokerMessage> taken = s.receive(ReceiveRequest.from("QT").top(top));
                assertEquals(top, taken.size());
                // what the RECEIVE did not take, another transaction can lock at once (NOWAIT fails if any is locked)
                try (PreparedStatement ps = other.prepareStatement("SELECT COUNT(*) FROM (SELECT 1 FROM ssb.message"
                        + " WHERE queue_name = 'QT' AND queuing_order > ? FOR UPDATE NOWAIT) x")) {
                    ps.setLong(1, taken.get(top - 1).queuingOrder());
                    ResultSet rs = ps.executeQuery();
                    rs.next();
                    assertEquals(3, rs.getInt(1), "the messages RECEIVE TOP (" + top + ") left, none locked");
                } catch (SQLException e) {
                    throw new AssertionError("RECEIVE TOP (" + top + ") locked a message it did not take: "
                            + e.getMessage(), e);
                }
                other.rollback();
                reader.commit();
                s.afterCompletion(true);
                drain(broker, reader);
            }
        }
    }

    /**
     * An END CONVERSATION deletes the messages the RECEIVE is about to take and commits while the RECEIVE waits for
     * them: the RECEIVE takes the message another conversation of that group still has, or, when the END emptied
     * the group, the next group's. (Before, the second case came back empty while a message was queued.)
     */
    @Test
    void aReceiveWhoseMessagesAnEndConversationDeletesTakesWhatIsLeft() throws Exception {
        DatabaseConfig db = PostgresServer.get().newDatabase("receive_end_race");
        ConnectionSource source = new ConnectionSource(db);
        try (PortableBroker broker = new PortableBroker(source, BackgroundRunner.daemonThreads(),
                PortableOptions.defaults()); Connection c = source.open(); Connection ender = source.open();
                Connection reader = source.open(); Connection watch = source.open()) {
            IdleGroupsReceiveTest.declare(broker, c);
            for (boolean sameGroup : new boolean[] {true, false}) {
                BrokerSession s = broker.session(c);
                Conversation a = s.beginDialog("I", "T", "C", DialogOptions.defaults());
                s.send(a.handle(), "M", bytes("a0"));
                Conversation b = s.beginDialog("I", "T", "C", DialogOptions.defaults());
                s.send(b.handle(), "M", bytes("b0"));
                c.commit();
                s.afterCompletion(true);
                TestAdmin admin = TestAdmin.of(broker, c);
                UUID targetA = admin.peerHandle(a.handle());
                UUID targetB = admin.peerHandle(b.handle());
                c.commit();
                if (sameGroup) {
                    s.moveConversation(targetB, groupOf(c, targetA));
                    c.commit();
                    s.afterCompletion(true);
                }

                BrokerSession ending = broker.session(ender);
                ending.endConversation(targetA, null, null); // deletes a0, not committed yet
                int readerPid = pid(reader);
                BrokerSession receiving = broker.session(reader);
                CompletableFuture<List<BrokerMessage>> got = CompletableFuture.supplyAsync(
                        () -> receiving.receive(ReceiveRequest.from("QT").top(1)));
                Awaitility.await("the RECEIVE waits for the END CONVERSATION's deletion")
                        .atMost(Duration.ofSeconds(30)).until(() -> got.isDone() || waitsForALock(watch, readerPid));
                assertEquals(false, got.isDone(), () -> "the RECEIVE did not wait: " + got.join());
                ender.commit();
                ending.afterCompletion(true);

                List<BrokerMessage> taken = got.get(30, TimeUnit.SECONDS);
                assertEquals(List.of("b0"), texts(taken), sameGroup
                        ? "the other conversation's message in the same group"
                        : "the next group's message, the first group having been emptied");
                reader.commit();
                receiving.afterCompletion(true);
                s.endConversation(a.handle(), null, null);
                s.endConversation(b.handle(), null, null);
                c.commit();
                s.afterCompletion(true);
                drain(broker, reader);
            }
        }
    }

    /**
     * Several readers drain a queue of many groups, one message per RECEIVE and transaction, as an activation's
     * readers do: each message costs one execution of the statement. A group that another reader released after this
     * RECEIVE's snapshot (its messages taken, a new turn) counts as held: locked with the newest version of its row,
     * it would be picked with messages already gone, and the statement run again. (Before, 4 readers ran it about 1.17
     * times per message, as pgbench did.)
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "prioritised groups: {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void severalReadersRunTheStatementOncePerMessage(boolean prioritised) throws Exception {
        DatabaseConfig db = PostgresServer.get().newDatabase("receive_races_" + prioritised);
        ConnectionSource source = new ConnectionSource(db);
        int readers = 4;
        int conversations = 40;
        int each = 25;
        try (PortableBroker broker = new PortableBroker(source, BackgroundRunner.daemonThreads(),
                PortableOptions.defaults()); Connection c = source.open()) {
            IdleGroupsReceiveTest.declare(broker, c);
            IdleGroupsReceiveTest.send(broker, c, conversations, each);
            if (prioritised) { // every group with one priority: the statement's variant that tries them first
                BrokerSession s = broker.session(c);
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                        "SELECT DISTINCT conversation_group_id FROM ssb.message WHERE queue_name = 'QT'")) {
                    List<UUID> groups = new ArrayList<>();
                    while (rs.next()) {
                        groups.add(rs.getObject(1, UUID.class));
                    }
                    groups.forEach(g -> s.setPriority(g, 5));
                }
                c.commit();
                s.afterCompletion(true);
            }
            java.util.concurrent.atomic.AtomicInteger executions = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicInteger taken = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicInteger emptyLooks = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(readers);
            List<CompletableFuture<Void>> done = new ArrayList<>();
            for (int r = 0; r < readers; r++) {
                done.add(CompletableFuture.runAsync(() -> {
                    try (Connection own = source.open()) {
                        Connection counted = countingReceives(own, executions);
                        BrokerSession s = broker.session(counted);
                        start.await(30, TimeUnit.SECONDS);
                        while (true) {
                            List<BrokerMessage> got = s.receive(ReceiveRequest.from("QT").top(1));
                            counted.commit();
                            s.afterCompletion(true);
                            if (got.isEmpty()) {
                                // a group released after the look's snapshot counts as held: an empty look while
                                // others hold or have just released the last groups; done once the queue is empty
                                emptyLooks.incrementAndGet();
                                if (queued(own) == 0) {
                                    return;
                                }
                                continue;
                            }
                            taken.addAndGet(got.size());
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, java.util.concurrent.Executors.newSingleThreadExecutor()));
            }
            CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
            assertEquals(conversations * each, taken.get(), "every message taken once");
            assertEquals(taken.get() + emptyLooks.get(), executions.get(),
                    "executions of the RECEIVE statement: one per message taken and one per empty look");
        }
    }

    /** @return the messages left on QT, read and committed on {@code c} */
    private static long queued(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM ssb.message WHERE queue_name = 'QT'")) {
            rs.next();
            long n = rs.getLong(1);
            c.commit();
            return n;
        }
    }

    /**
     * @return {@code c}, counting the executions of the one-statement RECEIVE its prepared statements run (between
     *     the settings it is planned under, in one text)
     */
    private static Connection countingReceives(Connection c, java.util.concurrent.atomic.AtomicInteger executions) {
        return (Connection) java.lang.reflect.Proxy.newProxyInstance(ReceiveRowLocksTest.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    if (method.getName().equals("unwrap") && args[0] == Connection.class) {
                        return proxy; // the session's statements go through this connection, not the driver's
                    }
                    Object result = invoke(method, c, args);
                    if (method.getName().equals("prepareStatement") && ((String) args[0]).contains("\nWITH grp ")) {
                        PreparedStatement ps = (PreparedStatement) result;
                        return java.lang.reflect.Proxy.newProxyInstance(ReceiveRowLocksTest.class.getClassLoader(),
                                new Class<?>[] {PreparedStatement.class}, (p, m, a) -> {
                                    if (m.getName().startsWith("execute")) {
                                        executions.incrementAndGet();
                                    }
                                    return invoke(m, ps, a);
                                });
                    }
                    return result;
                });
    }

    private static Object invoke(java.lang.reflect.Method m, Object target, Object[] args) throws Throwable {
        try {
            return m.invoke(target, args);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static boolean waitsForALock(Connection watch, int pid) throws SQLException {
        try (PreparedStatement ps = watch.prepareStatement(
                "SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = ?")) {
            ps.setInt(1, pid);
            try (ResultSet rs = ps.executeQuery()) {
                boolean waiting = rs.next() && rs.getBoolean(1);
                watch.commit();
                return waiting;
            }
        }
    }

    private static int pid(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            int pid = rs.getInt(1);
            c.commit();
            return pid;
        }
    }

    private static UUID groupOf(Connection c, UUID handle) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT conversation_group_id FROM ssb.conversation_endpoint WHERE conversation_handle = ?")) {
            ps.setObject(1, handle);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                UUID group = rs.getObject(1, UUID.class);
                c.commit();
                return group;
            }
        }
    }

    private static void drain(PortableBroker broker, Connection c) throws SQLException {
        BrokerSession s = broker.session(c);
        while (!s.receive(ReceiveRequest.from("QT").top(100)).isEmpty()
                | !s.receive(ReceiveRequest.from("QI").top(100)).isEmpty()) {
            c.commit();
            s.afterCompletion(true);
        }
        c.commit();
        s.afterCompletion(true);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> texts(List<BrokerMessage> messages) {
        List<String> texts = new ArrayList<>();
        for (BrokerMessage m : messages) {
            texts.add(new String(m.body(), StandardCharsets.UTF_8));
        }
        return texts;
    }
}
