package org.ssbjca.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ssbjca.conformance.DialogConformanceTest.begin;
import static org.ssbjca.conformance.DialogConformanceTest.bytes;
import static org.ssbjca.conformance.ReceiveConformanceTest.texts;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.ConversationEndedException;
import org.ssbjca.api.MessageTypes;
import org.ssbjca.api.ReceiveRequest;

/** END CONVERSATION: normally, WITH ERROR, WITH CLEANUP; what the other side sees; what remains afterwards. */
class EndConversationConformanceTest {

    @BackendTest
    void endSendsEndDialogAndBothEndsRemoveTheEndpoints(Db db) {
        Db.Objects o = db.objects();
        long before = db.endpoints();
        Conversation c = begin(db, o);
        db.run(s -> s.send(c.handle(), o.request, bytes("work")));
        BrokerMessage request = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue))).get(0);
        UUID target = request.conversationHandle();

        db.run(s -> {
            s.send(target, o.reply, bytes("done"));
            s.endConversation(target, null, null);
        });
        assertEquals("DO", db.state(target), "the target ended its side");
        assertEquals("DI", db.state(c.handle()), "the initiator knows the other side ended");

        List<BrokerMessage> back = db.tx(s -> s.receive(ReceiveRequest.from(o.initiatorQueue).top(10)));
        assertEquals(2, back.size());
        assertEquals("done", back.get(0).bodyAsText());
        assertTrue(back.get(1).isEndDialog(), "the reply, then EndDialog");
        assertEquals(0, back.get(1).bodyLength());

        db.run(s -> s.endConversation(c.handle(), null, null));
        assertEquals(before, db.endpoints(), "both sides ended: no endpoint remains");
        assertNull(db.state(c.handle()));
        assertNull(db.state(target));
    }

    @BackendTest
    void endWithErrorSendsTheCodeAndDescription(Db db) {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        db.run(s -> s.send(c.handle(), o.request, bytes("bad")));
        UUID target = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue))).get(0).conversationHandle();

        db.run(s -> s.endConversation(target, 4711, "cannot process <bad> & more"));

        BrokerMessage error = db.tx(s -> s.receive(ReceiveRequest.from(o.initiatorQueue))).get(0);
        assertTrue(error.isError());
        assertEquals(MessageTypes.ERROR, error.messageTypeName());
        assertEquals(4711, error.errorCode());
        assertEquals("cannot process <bad> & more", error.errorDescription());
        assertEquals("ER", db.state(c.handle()));
        assertThrows(ConversationEndedException.class, () -> db.run(s -> s.send(c.handle(), o.request, bytes("x"))),
                "a conversation in error cannot send");
        long before = db.endpoints();
        db.run(s -> s.endConversation(c.handle(), null, null));
        assertEquals(before - 2, db.endpoints(), "ending the errored side removes both endpoints");
    }

    @BackendTest
    void endWithErrorDropsMessagesNotYetDelivered(Db db) {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        db.admin(a -> {
            a.setQueueEnabled(o.targetQueue, false);
            return null;
        });
        db.run(s -> s.send(c.handle(), o.request, bytes("never delivered")));
        assertTrue(db.admin(a -> a.transmissionQueueDepth()) >= 1, "the message waits for the disabled queue");

        db.run(s -> s.endConversation(c.handle(), 7, "cancelled"));
        db.admin(a -> {
            a.setQueueEnabled(o.targetQueue, true);
            return null;
        });

        List<BrokerMessage> got = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue).top(10)
                .timeout(Duration.ofSeconds(5))));
        assertEquals(1, got.size(), "only the Error arrives: " + got);
        assertTrue(got.get(0).isError());
        assertEquals(7, got.get(0).errorCode());
    }

    @BackendTest
    void endRemovesThisSidesPendingMessages(Db db) {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        db.run(s -> s.send(c.handle(), o.request, bytes("q")));
        UUID target = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue))).get(0).conversationHandle();
        db.run(s -> {
            s.send(target, o.reply, bytes("r1"));
            s.send(target, o.reply, bytes("r2"));
        });
        assertEquals(2, db.depth(o.initiatorQueue));
        db.run(s -> s.endConversation(c.handle(), null, null));
        assertEquals(0, db.depth(o.initiatorQueue), "ending a conversation removes its messages from the queue");
        BrokerMessage end = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue))).get(0);
        assertTrue(end.isEndDialog());
    }

    /**
     * What a reader relies on before a bean's END CONVERSATION removes the conversation's queued messages (issue 44,
     * point 4): in the transaction that received from the group, a RECEIVE of that one conversation without WAITFOR
     * returns the messages still queued behind, of every type and in order, at once (the transaction already holds the
     * group), so that a priority request among them can be dead-lettered before the end.
     */
    @BackendTest
    void theRestOfAConversationCanBeTakenInTheReceivingTransactionBeforeItEnds(Db db) {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        db.run(s -> {
            s.send(c.handle(), o.request, bytes("work"));
            s.send(c.handle(), o.any, bytes("priority abc"));
            s.send(c.handle(), o.request, bytes("more work"));
            s.send(c.handle(), o.xml, bytes("<foo/>"));
        });
        Conversation other = begin(db, o);
        db.run(s -> s.send(other.handle(), o.request, bytes("another dialog")));

        List<BrokerMessage> rest = db.tx(s -> {
            BrokerMessage first = s.receive(ReceiveRequest.from(o.targetQueue)).get(0);
            assertEquals("work", first.bodyAsText());
            List<BrokerMessage> behind = s.receive(ReceiveRequest.from(o.targetQueue)
                    .conversation(first.conversation()).top(100).timeout(Duration.ZERO));
            s.send(first.conversationHandle(), o.reply, bytes("done"));
            s.endConversation(first.conversationHandle(), null, null);
            return behind;
        });

        assertEquals(List.of("priority abc", "more work", "<foo/>"), texts(rest));
        assertEquals(List.of(o.any, o.request, o.xml), rest.stream().map(BrokerMessage::messageTypeName).toList());
        assertEquals(1, db.depth(o.targetQueue), "the other dialog's message is left alone");
    }

    @BackendTest
    void endWithCleanupRemovesThisSideSilently(Db db) {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        db.run(s -> s.send(c.handle(), o.request, bytes("q")));
        UUID target = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue))).get(0).conversationHandle();
        db.run(s -> s.send(target, o.reply, bytes("r")));

        db.run(s -> s.endConversationWithCleanup(c.handle()));

        assertNull(db.state(c.handle()), "the endpoint is gone");
        assertEquals(0, db.depth(o.initiatorQueue), "its messages are gone");
        assertTrue(db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue))).isEmpty(),
                "the other side is not told");
        assertEquals("CO", db.state(target));
        db.run(s -> s.endConversationWithCleanup(target));
        assertNull(db.state(target));
    }

    @BackendTest
    void sendAfterEndingFailsClearly(Db db) {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        db.run(s -> s.send(c.handle(), o.request, bytes("q")));
        db.run(s -> s.endConversation(c.handle(), null, null));
        assertThrows(ConversationEndedException.class, () -> db.run(s -> s.send(c.handle(), o.request, bytes("x"))));
        assertThrows(ConversationEndedException.class, () -> db.run(s -> s.endConversation(c.handle(), null, null)));
    }

    @BackendTest
    void endingBeforeTheFirstSendLeavesAHandleThatSaysThisSideEnded(Db db) {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        db.run(s -> s.endConversation(c.handle(), null, null));
        ConversationEndedException send = assertThrows(ConversationEndedException.class,
                () -> db.run(s -> s.send(c.handle(), o.request, bytes("x"))));
        ConversationEndedException end = assertThrows(ConversationEndedException.class,
                () -> db.run(s -> s.endConversation(c.handle(), null, null)));
        if (!(db.broker() instanceof org.ssbjca.backend.sqlserver.SqlServerBroker)) {
            // SQL Server answers 8426 (handle not found) or 8429/8427 (endpoint state CD) here.
            assertTrue(send.getMessage().contains("this side of the conversation has ended"), send.getMessage());
            assertTrue(end.getMessage().contains("this side of the conversation has ended"), end.getMessage());
        }
    }

    @BackendTest
    void bothSidesEndedIsSaidOnceBothHaveEnded(Db db) {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        db.run(s -> s.send(c.handle(), o.request, bytes("q")));
        UUID target = db.admin(a -> a.peerHandle(c.handle()));
        db.run(s -> s.endConversation(target, null, null));
        db.run(s -> s.endConversation(c.handle(), null, null));
        ConversationEndedException e = assertThrows(ConversationEndedException.class,
                () -> db.run(s -> s.send(c.handle(), o.request, bytes("x"))));
        if (!(db.broker() instanceof org.ssbjca.backend.sqlserver.SqlServerBroker)) {
            assertTrue(e.getMessage().contains("this side of the conversation has ended"), e.getMessage());
        }
    }

    @BackendTest
    void sendAfterTheOtherSideEndedFails(Db db) {
        Db.Objects o = db.objects();
        Conversation c = begin(db, o);
        db.run(s -> s.send(c.handle(), o.request, bytes("q")));
        UUID target = db.admin(a -> a.peerHandle(c.handle()));
        db.run(s -> s.endConversation(c.handle(), null, null));
        assertThrows(ConversationEndedException.class, () -> db.run(s -> s.send(target, o.reply, bytes("late"))));
    }

    @BackendTest
    void fireAndForgetStillLeavesNoEndpointOnceTheTargetEnds(Db db) {
        Db.Objects o = db.objects();
        long before = db.endpoints();
        Conversation c = begin(db, o);
        db.run(s -> {
            s.send(c.handle(), o.request, bytes("fire"));
            s.endConversation(c.handle(), null, null);
        });
        List<BrokerMessage> got = db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue).top(10)));
        assertEquals(List.of("fire", ""), texts(got));
        assertTrue(got.get(1).isEndDialog());
        db.run(s -> s.endConversation(got.get(0).conversationHandle(), null, null));
        assertEquals(before, db.endpoints());
        assertEquals(0, db.depth(o.initiatorQueue), "nothing came back to the initiator, which had gone");
    }

    @BackendTest
    void manyCompleteDialogsLeaveNoEndpoints(Db db) {
        Db.Objects o = db.objects();
        long before = db.endpoints();
        for (int i = 0; i < 20; i++) {
            Conversation c = begin(db, o);
            db.run(s -> s.send(c.handle(), o.request, bytes("q")));
            db.run(s -> {
                BrokerMessage m = s.receive(ReceiveRequest.from(o.targetQueue)).get(0);
                s.send(m.conversationHandle(), o.reply, bytes("r"));
                s.endConversation(m.conversationHandle(), null, null);
            });
            db.run(s -> {
                List<BrokerMessage> back = s.receive(ReceiveRequest.from(o.initiatorQueue).top(10));
                assertTrue(back.get(back.size() - 1).isEndDialog());
                s.endConversation(c.handle(), null, null);
            });
        }
        assertEquals(before, db.endpoints());
        assertEquals(0, db.depth(o.initiatorQueue));
        assertEquals(0, db.depth(o.targetQueue));
    }

    /**
     * The leak detector and the hygiene operation: a fire-and-forget sender whose target never ends leaves the
     * initiator's endpoint in DO and the target's in DI; both are counted by service and state, not among those
     * begun before an hour ago, and ended WITH CLEANUP from the handles listed.
     */
    @BackendTest
    void leftConversationsAreCountedByServiceAndStateAndEndedWithCleanup(Db db) {
        Db.Objects o = db.objects();
        java.time.Instant started = java.time.Instant.now();
        for (int i = 0; i < 3; i++) {
            Conversation c = begin(db, o);
            db.run(s -> {
                s.send(c.handle(), o.request, bytes("fire"));
                s.endConversation(c.handle(), null, null);
            });
        }
        for (int i = 0; i < 3; i++) { // a group (here a conversation) per RECEIVE
            assertEquals(List.of("fire", ""), texts(db.tx(s -> s.receive(ReceiveRequest.from(o.targetQueue)
                    .top(10)))), "the message and the EndDialog; the target never ends");
        }

        List<org.ssbjca.backend.EndpointCount> all = db.admin(a -> a.conversationEndpoints(null));
        org.ssbjca.backend.EndpointCount target = find(all, o.targetService, "DI");
        org.ssbjca.backend.EndpointCount initiator = find(all, o.initiatorService, "DO");
        assertEquals(3, target.count(), all.toString());
        assertEquals(3, initiator.count(), all.toString());
        assertTrue(target.oldestBegun() != null && !target.oldestBegun().isBefore(started.minusSeconds(60))
                && target.oldestBegun().isBefore(java.time.Instant.now().plusSeconds(60)), target.toString());
        List<org.ssbjca.backend.EndpointCount> old = db.admin(a -> a.conversationEndpoints(
                java.time.Instant.now().minus(Duration.ofHours(1))));
        assertTrue(old.stream().noneMatch(e -> e.service().equals(o.targetService)
                || e.service().equals(o.initiatorService)), old.toString());
        assertEquals(3, db.admin(a -> a.conversationEndpoints(java.time.Instant.now().plusSeconds(60))).stream()
                .filter(e -> e.service().equals(o.targetService) && e.state().equals("DI"))
                .mapToLong(org.ssbjca.backend.EndpointCount::count).sum());

        List<UUID> two = db.admin(a -> a.conversationHandles(o.targetService, "DI", null, 2));
        assertEquals(2, two.size());
        assertTrue(db.admin(a -> a.conversationHandles(o.targetService, "DI",
                java.time.Instant.now().minus(Duration.ofHours(1)), 10)).isEmpty());
        for (String[] side : new String[][] {{o.targetService, "DI"}, {o.initiatorService, "DO"}}) {
            for (UUID h : db.admin(a -> a.conversationHandles(side[0], side[1], null, 10))) {
                db.run(s -> s.endConversationWithCleanup(h));
            }
        }
        List<org.ssbjca.backend.EndpointCount> after = db.admin(a -> a.conversationEndpoints(null));
        assertTrue(after.stream().noneMatch(e -> (e.service().equals(o.targetService)
                || e.service().equals(o.initiatorService)) && !e.state().equals("CD")), after.toString());
    }

    private static org.ssbjca.backend.EndpointCount find(List<org.ssbjca.backend.EndpointCount> counts,
            String service, String state) {
        return counts.stream().filter(e -> e.service().equals(service) && e.state().equals(state)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + service + "/" + state + " in " + counts));
    }
}
