package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.ReceiveRequest;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.GroupPresence;
import org.ssbjca.conformance.PostgresServer;

/**
 * PostgreSQL's RECEIVE from a whole queue runs without its prioritised groups' part while the queue is known to have
 * no prioritised group ({@link GroupPresence}, {@link PortableSql#receiveNext}): what that may delay and what it may
 * not. Three conversations, each its own group at the target, A, B and C in turn order; each RECEIVE takes one message
 * and commits, and the test looks at which group it came from.
 */
class PriorityPresenceReceiveTest {

    /** A priority set through this JVM is honoured by the next RECEIVE, though the queue had none a moment ago. */
    @Test
    void aPrioritySetThroughThisJvmIsTakenFirstAtOnce() throws Exception {
        try (Queue q = new Queue("priority_presence_jvm")) {
            assertEquals(q.groups.get(0), q.receiveOne(true), "no priority: A, first in turn");
            BrokerSession s = q.broker.session(q.other);
            s.setPriority(q.groups.get(2), 10);
            q.other.commit();
            s.afterCompletion(true);
            assertEquals(q.groups.get(2), q.receiveOne(true), "C, prioritised, before B");
        }
    }

    /**
     * A priority another node set (a row this JVM did not write) is honoured once {@link GroupPresence#RECHECK_NANOS}
     * has passed since the queue was found without one; until then the groups are taken in turn.
     */
    @Test
    void aPrioritySetElsewhereIsTakenFirstOnceTheRecheckIntervalHasPassed() throws Exception {
        try (Queue q = new Queue("priority_presence_node")) {
            assertEquals(q.groups.get(0), q.receiveOne(true), "no priority: A, first in turn");
            prioritiseWithSql(q.other, q.groups.get(2));
            q.nanos.addAndGet(GroupPresence.RECHECK_NANOS - 1);
            assertEquals(q.groups.get(1), q.receiveOne(true),
                    "within the interval the queue is believed to have no priority: B, next in turn");
            q.nanos.addAndGet(1);
            assertEquals(q.groups.get(2), q.receiveOne(true), "after it: C, prioritised");
        }
    }

    /** A queue found with prioritised groups keeps them first, and a reader told to ignore them takes turn order. */
    @Test
    void aQueueWithPrioritiesIsServedByPriorityUnlessTheReaderIgnoresThem() throws Exception {
        try (Queue q = new Queue("priority_presence_some")) {
            prioritiseWithSql(q.other, q.groups.get(2));
            assertEquals(q.groups.get(0), q.receiveOne(false), "priorities ignored: A, first in turn");
            assertEquals(q.groups.get(2), q.receiveOne(true), "C, prioritised");
            assertEquals(q.groups.get(2), q.receiveOne(true), "C still has messages and its priority");
        }
    }

    /**
     * A PostgreSQL database with QT's three groups, a broker whose {@link GroupPresence} reads {@link #nanos}, a
     * reader's connection and another.
     */
    private static final class Queue implements AutoCloseable {
        final AtomicLong nanos = new AtomicLong();
        final PortableBroker broker;
        final Connection reader;
        final Connection other;
        final List<UUID> groups;

        Queue(String database) throws Exception {
            DatabaseConfig db = PostgresServer.get().newDatabase(database);
            ConnectionSource source = new ConnectionSource(db);
            broker = new PortableBroker(source, BackgroundRunner.daemonThreads(), PortableOptions.defaults(),
                    nanos::get);
            reader = source.open();
            other = source.open();
            groups = threeGroups(broker, reader);
        }

        /** RECEIVE TOP (1) from QT, committed; @return the group of the message taken */
        UUID receiveOne(boolean priorities) throws Exception {
            BrokerSession s = broker.session(reader);
            List<BrokerMessage> got = s.receive(ReceiveRequest.from("QT").top(1), priorities, false).messages();
            reader.commit();
            s.afterCompletion(true);
            assertEquals(1, got.size());
            return got.get(0).conversationGroupId();
        }

        @Override
        public void close() throws SQLException {
            try {
                reader.close();
                other.close();
            } finally {
                broker.close();
            }
        }
    }

    /** Three conversations to QT, two messages each; their target groups in turn order. */
    private static List<UUID> threeGroups(PortableBroker broker, Connection c) throws Exception {
        IdleGroupsReceiveTest.declare(broker, c);
        IdleGroupsReceiveTest.send(broker, c, 3, 2);
        List<UUID> groups = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT conversation_group_id FROM ssb.conversation_group"
                + " WHERE queue_name = 'QT' ORDER BY turn"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                groups.add(rs.getObject(1, UUID.class));
            }
        }
        c.commit();
        assertEquals(3, groups.size());
        return groups;
    }

    /** A priority row written by plain SQL, as another node's adapter writes it. */
    private static void prioritiseWithSql(Connection c, UUID group) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO ssb.conversation_priority (conversation_group_id,"
                + " queue_name, priority, request_order, requested_at) VALUES (?, 'QT', 10, 1, now())")) {
            ps.setObject(1, group);
            ps.executeUpdate();
        }
        c.commit();
    }
}
