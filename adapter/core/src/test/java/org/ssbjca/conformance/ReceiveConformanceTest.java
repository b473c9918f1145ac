package org.ssbjca.conformance;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ssbjca.conformance.DialogConformanceTest.begin;
import static org.ssbjca.conformance.DialogConformanceTest.bytes;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.QueueDisabledException;
import org.ssbjca.api.ReceiveRequest;

/** RECEIVE, WAITFOR, GET CONVERSATION GROUP, MOVE CONVERSATION, group locks and priorities. */
class ReceiveConformanceTest {

    @BackendTest
    void receiveReturnsOneConversationGroupOnlyInOrder(Db db) {
        Db.Objects o = db.objects();
        Conversation a = begin(db, o);
        Conversation b = begin(db, o);
        db.run(s -> {
            s.send(a.handle(), o.request, bytes("a0"));
            s.send(b.handle(), o.request, bytes("b0"));
            s.send(a.handle(), o.request, bytes("a1"));
            s.send(b.handle(), o.request, bytes("b1"));
            s.send(a.handle(), o.request, bytes("a2"));
        });
        List<BrokerMessage> first = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue).top(100)));
        List<BrokerMessage> second = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue).top(100)));

        assertEquals(List.of("a0", "a1", "a2"), texts(first), "the oldest group first, all of it, in order");
        assertEquals(List.of("b0", "b1"), texts(second));
        assertEquals(1, first.stream().map(BrokerMessage::conversationGroupId).distinct().count());
    }

    @BackendTest
    void topLimitsTheBatchAndTheRestFollowsInOrder(Db db) {
        Db.Objects o = db.objects();
        Conversation a = begin(db, o);
        db.run(s -> {
            for (int i = 0; i < 5; i++) {
                s.send(a.handle(), o.request, bytes("m" + i));
            }
        });
        assertEquals(List.of("m0", "m1"), texts(db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue).top(2)))));
        assertEquals(List.of("m2", "m3", "m4"),
                texts(db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue).top(10)))));
    }

    /**
     * A reader keeps its connection, so the database runs its RECEIVE as a prepared statement again and again: on
     * PostgreSQL a generic plan after a few executions, whose shape depends on the tables' statistics. TOP must hold
     * whatever the plan: one message per RECEIVE, in order, in every plan shape the fixture can force.
     */
    @BackendTest
    void topHoldsWhateverThePlanForAReaderThatReceivesAgainAndAgain(Db db) {
        Db.Objects o = db.objects();
        for (Map.Entry<String, List<String>> shape : db.fixture().planShapes().entrySet()) {
            try (Db.Reader reader = db.reader(shape.getValue())) {
                for (int round = 0; round < 3; round++) {
                    Conversation a = begin(db, o);
                    String prefix = "r" + round + "m";
                    db.run(s -> {
                        for (int i = 0; i < 5; i++) {
                            s.send(a.handle(), o.request, bytes(prefix + i));
                        }
                    });
                    for (int i = 0; i < 5; i++) {
                        List<BrokerMessage> got = reader.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue).top(1)));
                        assertEquals(List.of(prefix + i), texts(got), "RECEIVE TOP (1), execution "
                                + (round * 5 + i + 1) + " on one connection, plan: " + shape.getKey());
                    }
                }
            }
            assertEquals(0, db.depth(o.targetQueue), "plan: " + shape.getKey());
        }
    }

    @BackendTest
    void rollbackPutsTheMessagesBack(Db db) {
        Db.Objects o = db.objects();
        Conversation a = begin(db, o);
        db.run(s -> s.send(a.handle(), o.request, bytes("again")));
        try (Db.Tx tx = db.begin()) {
            assertEquals(1, tx.session().receive(ReceiveRequest.from(o.targetQueue)).size());
            tx.rollback();
        }
        assertEquals(List.of("again"), texts(db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue)))));
    }

    @BackendTest
    void aLockedGroupIsSkippedByOtherReadersWithoutWaiting(Db db) throws Exception {
        Db.Objects o = db.objects();
        Conversation a = begin(db, o);
        Conversation b = begin(db, o);
        db.run(s -> s.send(a.handle(), o.request, bytes("a0")));
        db.run(s -> s.send(b.handle(), o.request, bytes("b0")));
        db.run(s -> s.send(a.handle(), o.request, bytes("a1")));
        try (Db.Tx holder = db.begin(); Db.Tx other = db.begin()) {
            List<BrokerMessage> held = holder.session().receive(ReceiveRequest.from(o.targetQueue).top(1));
            assertEquals(List.of("a0"), texts(held));
            // A reader that waited for the holder's lock would wait these 15 s (and then fail): the bound below is a
            // third of that, and many times what two RECEIVEs take on a slow machine.
            db.fixture().setLockTimeout(other.connection(), 15_000);

            long start = System.nanoTime();
            List<BrokerMessage> skipped = other.session().receive(ReceiveRequest.from(o.targetQueue).top(10));
            List<BrokerMessage> filtered = other.session().receive(ReceiveRequest.from(o.targetQueue)
                    .conversationGroup(held.get(0).conversationGroupId()).top(10));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

            assertEquals(List.of("b0"), texts(skipped), "the other reader takes the next free group");
            assertTrue(filtered.isEmpty(), "a RECEIVE for a group another transaction holds finds nothing");
            assertTrue(millis < 5_000, "no reader waited for another's lock: " + millis + " ms");
            other.commit();
            holder.commit();
        }
        assertEquals(List.of("a1"), texts(db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue)))));
    }

    @BackendTest
    void receiveCanFilterByConversation(Db db) {
        Db.Objects o = db.objects();
        Conversation a = begin(db, o);
        Conversation b = begin(db, o);
        db.run(s -> {
            s.send(a.handle(), o.request, bytes("a0"));
            s.send(b.handle(), o.request, bytes("b0"));
        });
        for (int i = 0; i < 2; i++) {
            BrokerMessage m = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue))).get(0);
            db.run(s -> s.send(m.conversationHandle(), o.reply, m.body()));
        }
        List<BrokerMessage> onlyB = db.tx(s -> s.receive(ReceiveRequest.from(o.initiatorQueue).conversation(b)
                .top(10)));
        assertEquals(List.of("b0"), texts(onlyB));
        assertEquals(b.handle(), onlyB.get(0).conversationHandle());
    }

    @BackendTest
    void waitforReturnsAsSoonAsAMessageIsCommitted(Db db) throws Exception {
        Db.Objects o = db.objects();
        Conversation a = begin(db, o);
        CompletableFuture<List<BrokerMessage>> waiting = CompletableFuture.supplyAsync(() ->
                db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue).timeout(Duration.ofSeconds(30)))));
        await("nothing to receive yet").during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(30))
                .until(() -> !waiting.isDone());
        long sent = System.nanoTime();
        db.run(s -> s.send(a.handle(), o.request, bytes("wake")));
        List<BrokerMessage> got = waiting.get(60, TimeUnit.SECONDS);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
        assertEquals(List.of("wake"), texts(got));
        // a third of the timeout: the send's own commit may take a second or more on a slow machine
        assertTrue(millis < 10_000, "woken by the commit, not by the 30 s timeout: " + millis + " ms");
    }

    @BackendTest
    void waitforTimesOutEmpty(Db db) {
        Db.Objects o = db.objects();
        long start = System.nanoTime();
        List<BrokerMessage> got = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue)
                .timeout(Duration.ofMillis(700))));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(got.isEmpty());
        assertTrue(millis >= 600, "waited for the timeout: " + millis + " ms");
    }

    @BackendTest
    void getConversationGroupLocksTheNextGroupWithoutReceiving(Db db) throws Exception {
        Db.Objects o = db.objects();
        Conversation a = begin(db, o);
        db.run(s -> s.send(a.handle(), o.request, bytes("a0")));
        try (Db.Tx holder = db.begin(); Db.Tx other = db.begin()) {
            Optional<UUID> group = holder.session().getConversationGroup(o.targetQueue, Duration.ZERO);
            assertTrue(group.isPresent());
            // A reader that waited for the holder's lock would wait these 15 s (and then fail): the bound below is a
            // third of that, and many times what two RECEIVEs take on a slow machine.
            db.fixture().setLockTimeout(other.connection(), 15_000);
            assertTrue(other.session().receive(ReceiveRequest.from(o.targetQueue)).isEmpty(),
                    "the group is locked by GET CONVERSATION GROUP");
            other.commit();
            List<BrokerMessage> got = holder.session().receive(ReceiveRequest.from(o.targetQueue)
                    .conversationGroup(group.get()));
            assertEquals(List.of("a0"), texts(got), "nothing was received by GET CONVERSATION GROUP");
            holder.commit();
        }
        assertTrue(db.tx(s -> s.getConversationGroup(o.targetQueue, Duration.ZERO)).isEmpty(),
                "no group has messages any more");
    }

    @BackendTest
    void moveConversationJoinsAnotherGroup(Db db) {
        Db.Objects o = db.objects();
        Conversation a = begin(db, o);
        Conversation b = begin(db, o);
        db.run(s -> {
            s.send(a.handle(), o.request, bytes("a0"));
            s.send(b.handle(), o.request, bytes("b0"));
        });
        UUID targetA = db.admin(x -> x.peerHandle(a.handle()));
        UUID targetB = db.admin(x -> x.peerHandle(b.handle()));
        UUID groupA = db.tx(s -> {
            List<BrokerMessage> m = s.receive(ReceiveRequest.from(o.targetQueue).conversation(
                    Conversation.ofHandle(targetA)));
            return m.get(0).conversationGroupId();
        });
        db.run(s -> s.moveConversation(targetB, groupA));
        db.run(s -> s.send(a.handle(), o.request, bytes("a1")));

        List<BrokerMessage> together = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue).top(10)));

        assertEquals(List.of("b0", "a1"), texts(together), "both conversations now share one group");
        assertTrue(together.stream().allMatch(m -> m.conversationGroupId().equals(groupA)));
    }

    @BackendTest
    void receiveOnADisabledQueueFailsAndMessagesWaitUntilItIsEnabled(Db db) {
        Db.Objects o = db.objects();
        Conversation a = begin(db, o);
        db.admin(x -> {
            x.setQueueEnabled(o.targetQueue, false);
            return null;
        });
        db.run(s -> s.send(a.handle(), o.request, bytes("later")));
        assertThrows(QueueDisabledException.class,
                () -> db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue))));
        boolean enabled = db.admin(x -> x.isQueueEnabled(o.targetQueue));
        assertFalse(enabled);

        db.admin(x -> {
            x.setQueueEnabled(o.targetQueue, true);
            return null;
        });
        List<BrokerMessage> got = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue)
                .timeout(Duration.ofSeconds(5))));
        assertEquals(List.of("later"), texts(got));
    }

    @BackendTest
    void prioritisedGroupsComeFirstHighestThenEarliest(Db db) {
        Db.Objects o = db.objects();
        fiveGroupsThreePrioritised(db, o);
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            order.addAll(texts(db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue)))));
        }
        assertEquals(List.of("c1", "c3", "c4", "c0", "c2"), order,
                "200 first, then the two 50s in request order, then the rest in round-robin order");
    }

    /** An activation with {@code priorityEnabled=false}: its reader takes the groups in turn, prioritised or not. */
    @BackendTest
    void aReaderThatIgnoresPrioritiesTakesTheGroupsInTurn(Db db) {
        Db.Objects o = db.objects();
        fiveGroupsThreePrioritised(db, o);
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            order.addAll(texts(db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue), false, false).messages())));
        }
        assertEquals(List.of("c0", "c1", "c2", "c3", "c4"), order, "round-robin order, priorities ignored");
    }

    /**
     * Five conversations whose target groups have each been served once, in order, then one message each ("c0" to
     * "c4"); groups 3 and 4 get priority 50, group 1 priority 200.
     */
    private static void fiveGroupsThreePrioritised(Db db, Db.Objects o) {
        List<Conversation> dialogs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Conversation c = begin(db, o);
            int n = i;
            db.run(s -> s.send(c.handle(), o.request, bytes("c" + n)));
            dialogs.add(c);
        }
        List<UUID> targetGroups = new ArrayList<>();
        for (Conversation c : dialogs) {
            UUID target = db.admin(x -> x.peerHandle(c.handle()));
            targetGroups.add(db.tx(s -> {
                BrokerMessage m = s.receive(ReceiveRequest.from(o.targetQueue).conversation(
                        Conversation.ofHandle(target))).get(0);
                s.send(target, o.reply, bytes("keep"));
                return m.conversationGroupId();
            }));
        }
        for (int i = 0; i < 5; i++) {
            int n = i;
            db.run(s -> s.send(dialogs.get(n).handle(), o.request, bytes("c" + n)));
        }
        db.run(s -> {
            s.setPriority(targetGroups.get(3), 50);
            s.setPriority(targetGroups.get(1), 200);
            s.setPriority(targetGroups.get(4), 50);
        });
    }

    static List<String> texts(List<BrokerMessage> messages) {
        List<String> out = new ArrayList<>();
        messages.forEach(m -> out.add(m.bodyAsText()));
        return out;
    }

    /**
     * A message sent to a conversation while a RECEIVE holds its group's last message is received at once, whichever
     * of the two transactions commits first, and the SEND never waits for the RECEIVE. (PostgreSQL parks a group a
     * RECEIVE emptied so that the round-robin pick skips it; each transaction sees the other's change only once
     * committed, and the check after both commits gives the group its turn again.) Then a message sent to the idle
     * conversation much later is received at once too.
     */
    @BackendTest
    void aMessageSentWhileItsGroupIsEmptiedIsReceivedAtOnceWhicheverCommitsFirst(Db db) throws Exception {
        Db.Objects o = db.objects();
        for (boolean senderFirst : new boolean[] {true, false}) {
            Conversation c = begin(db, o);
            db.run(s -> s.send(c.handle(), o.request, bytes("first")));
            try (Db.Tx receiver = db.begin(); Db.Tx sender = db.begin()) {
                db.fixture().setLockTimeout(sender.connection(), 1000); // a SEND never waits for a reader
                assertEquals(List.of("first"), texts(receiver.session().receive(
                        ReceiveRequest.from(o.targetQueue).top(10))));
                sender.session().send(c.handle(), o.request, bytes("second"));
                if (senderFirst) {
                    sender.commit();
                    receiver.commit();
                } else {
                    receiver.commit();
                    sender.commit();
                }
            }
            List<String> got = org.awaitility.Awaitility.await("received (sender committed first: " + senderFirst + ")")
                    .atMost(java.time.Duration.ofSeconds(30))
                    .until(() -> texts(db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue).top(10)))),
                            l -> !l.isEmpty());
            assertEquals(List.of("second"), got);
            db.run(s -> s.send(c.handle(), o.request, bytes("later")));
            assertEquals(List.of("later"), texts(db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue).top(10)))),
                    "a message to an idle conversation is received at once");
        }
    }

    /**
     * Request and reply: a client waits for its reply in a RECEIVE of its conversation, holding its group; the
     * target's reply (a SEND to that group) never waits for the client's transaction, and the client receives it in
     * that same RECEIVE loop. The client's transaction may also end without having received it: the reply is then
     * received at once by an unfiltered RECEIVE. (EchoPostgresIT stalled 30 s per request while the SEND waited.)
     */
    @BackendTest
    void aReplyToAConversationWhoseGroupAReceiveHoldsNeverWaits(Db db) throws Exception {
        Db.Objects o = db.objects();
        for (boolean clientTakesIt : new boolean[] {true, false}) {
            Conversation c = begin(db, o);
            db.run(s -> s.send(c.handle(), o.request, bytes("request")));
            BrokerMessage request = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue).top(1))).get(0);
            try (Db.Tx client = db.begin(); Db.Tx target = db.begin()) {
                assertTrue(client.session().receive(ReceiveRequest.from(o.initiatorQueue).conversation(c)
                        .top(10)).isEmpty(), "nothing yet; the client holds its group");
                db.fixture().setLockTimeout(target.connection(), 1000); // the reply never waits for the client
                target.session().send(request.conversationHandle(), o.reply, bytes("reply"));
                target.commit();
                if (clientTakesIt) {
                    assertEquals(List.of("reply"), texts(client.session().receive(ReceiveRequest
                            .from(o.initiatorQueue).conversation(c).top(10))));
                }
                client.commit();
            }
            if (!clientTakesIt) {
                List<String> got = await("the reply received after the client's commit")
                        .atMost(Duration.ofSeconds(30))
                        .until(() -> texts(db.tx(s -> s.receive(ReceiveRequest.from(o.initiatorQueue).top(10)))),
                                l -> !l.isEmpty());
                assertEquals(List.of("reply"), got);
            }
        }
    }
}
