package org.ssbjca.management;

import static org.awaitility.Awaitility.await;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.inbound.InboundBackends;
import org.ssbjca.inbound.InboundHarness;

/**
 * {@code PendingConversationGroups} (the first {@value ActivationManagement#PENDING_LIMIT} groups in the order the
 * readers take them, each with its messages, oldest message and priority) and {@code PendingConversationGroupCount}
 * (all of them), on a paused activation whose queue holds one group more than the list shows.
 */
class PendingConversationGroupsTest {

    private static final int GROUPS = ActivationManagement.PENDING_LIMIT + 1;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void theFirstHundredGroupsAreListedWithTheirMessagesWhileTheCountCountsAll(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            ActivationMXBean mx = pausedActivation(h, new CopyOnWriteArrayList<>());
            Instant before = Instant.now().minusSeconds(1);

            sendGroups(h);

            Instant after = Instant.now().plusSeconds(1);
            List<PendingGroupInfo> pending = mx.getPendingConversationGroups();
            assertEquals(ActivationManagement.PENDING_LIMIT, pending.size(), "the first 100 of " + GROUPS);
            assertEquals(3, pending.get(0).getMessages(), "the first group's three messages");
            assertTrue(pending.subList(1, pending.size()).stream().allMatch(p -> p.getMessages() == 1),
                    "one message in each other group");
            assertTrue(pending.stream().allMatch(p -> p.getPriority() == null), "no priorities");
            for (PendingGroupInfo p : pending) {
                Date oldest = p.getOldestMessage();
                assertFalse(oldest.toInstant().isBefore(before) || oldest.toInstant().isAfter(after),
                        "enqueued while sending: " + oldest + " not within " + before + " and " + after);
            }
            assertEquals(ActivationManagement.PENDING_LIMIT,
                    pending.stream().map(PendingGroupInfo::getGroupId).distinct().count(), "each group once");
            await("the count is of all " + GROUPS
                    + " groups, not capped (read at most every 5 s)")
                    .until(() -> mx.getPendingConversationGroupCount() == GROUPS);
        }
    }

    /**
     * Group 100 (the one left out of the list) and group 50 get priority 5, in that order, then group 99 gets 7: the
     * list is 99, 100, 50 (highest priority, then earliest request), then the others in turn order, which leaves out
     * group 98; one reader then takes them in exactly that order, and the first group's two more messages last (it
     * got a new turn behind the others each time it was received).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void prioritisedGroupsAreListedFirstThenTheRestInTheOrderTheReadersTakeThem(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            List<String> delivered = new CopyOnWriteArrayList<>();
            ActivationMXBean mx = pausedActivation(h, delivered);
            sendGroups(h);
            List<String> groups = allPendingGroups(h);
            assertEquals(GROUPS, groups.size());

            mx.setPriority(groups.get(100), 5);
            mx.setPriority(groups.get(50), 5);
            mx.setPriority(groups.get(99), 7);

            List<PendingGroupInfo> pending = mx.getPendingConversationGroups();
            List<String> expected = new ArrayList<>(List.of(groups.get(99), groups.get(100), groups.get(50)));
            IntStream.rangeClosed(0, 97).filter(i -> i != 50).forEach(i -> expected.add(groups.get(i)));
            assertEquals(expected, pending.stream().map(PendingGroupInfo::getGroupId).collect(Collectors.toList()));
            List<Integer> priorities = pending.stream().limit(4).map(PendingGroupInfo::getPriority)
                    .collect(Collectors.toList());
            assertEquals(Arrays.asList(7, 5, 5, null), priorities);

            mx.resume();
            await("every message delivered").until(() -> delivered.size() == GROUPS + 2);
            List<String> bodies = new ArrayList<>(List.of("g99", "g100", "g50", "g0"));
            IntStream.rangeClosed(1, 98).filter(i -> i != 50).forEach(i -> bodies.add("g" + i));
            bodies.addAll(List.of("g0", "g0"));
            assertEquals(bodies, delivered.stream().map(d -> d.substring(d.indexOf('=') + 1))
                    .collect(Collectors.toList()), "the order the readers took them");
            Set<String> deliveredGroups = delivered.stream().map(d -> d.substring(0, d.indexOf('=')))
                    .collect(Collectors.toCollection(LinkedHashSet::new));
            expected.add(groups.get(98));
            assertEquals(expected, List.copyOf(deliveredGroups), "the groups in the order listed, then group 98");
            assertTrue(mx.getPendingConversationGroups().isEmpty());
        }
    }

    /**
     * Issue 44: a priority request no reader has scanned yet (the activation is paused, so no scan runs) is listed as
     * requested: the group shows the priority its last valid request asks for, and is listed where the readers will
     * take it once the request is recorded (ahead of the groups without one); an invalid request changes nothing.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aPriorityRequestNotYetScannedIsListedAsRequested(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            ActivationMXBean mx = pausedActivation(h, new CopyOnWriteArrayList<>());
            java.util.UUID[] dialogs = new java.util.UUID[3];
            h.tx(s -> {
                for (int i = 0; i < dialogs.length; i++) {
                    Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET,
                            InboundHarness.CONTRACT, DialogOptions.defaults());
                    s.send(c.handle(), InboundHarness.REQUEST, ("g" + i).getBytes(UTF_8));
                    dialogs[i] = c.handle();
                }
                return null;
            });
            List<String> groups = allPendingGroups(h);
            assertEquals(3, groups.size());
            h.tx(s -> {
                s.send(dialogs[2], InboundHarness.SET_PRIORITY, "<priority>9</priority>".getBytes(UTF_8));
                s.send(dialogs[2], InboundHarness.SET_PRIORITY, "<priority>40</priority>".getBytes(UTF_8));
                s.send(dialogs[2], InboundHarness.SET_PRIORITY, "<priority>abc</priority>".getBytes(UTF_8));
                s.send(dialogs[1], InboundHarness.SET_PRIORITY, "<priority>300</priority>".getBytes(UTF_8));
                return null;
            });
            assertTrue(h.tx(s -> h.db.broker().ledger(s.connection()).priorities(InboundHarness.TARGET_QUEUE))
                    .isEmpty(), "no scan recorded the requests");

            List<PendingGroupInfo> pending = mx.getPendingConversationGroups();
            String listed = pending.stream().map(p -> p.getGroupId() + "=" + p.getPriority())
                    .collect(Collectors.joining(", "));
            assertEquals(List.of(groups.get(2), groups.get(0), groups.get(1)),
                    pending.stream().map(PendingGroupInfo::getGroupId).collect(Collectors.toList()), listed);
            assertEquals(Arrays.asList(40, null, null),
                    pending.stream().map(PendingGroupInfo::getPriority).collect(Collectors.toList()), listed);
        }
    }

    /**
     * @param delivered where the bean records "group=body" of each message
     * @return the MBean of a one-reader activation, paused with its reader parked
     */
    private static ActivationMXBean pausedActivation(InboundHarness h, List<String> delivered) throws Exception {
        BrokerMessageListener bean = m -> delivered.add(m.conversationGroupId() + "=" + m.bodyAsText());
        h.activate(BrokerMessageListener.class, bean, true, h.spec());
        ActivationMXBean mx = Jmx.proxy(Jmx.onlyActivation(h));
        ActivationMXBeanTest.pauseFully(mx);
        return mx;
    }

    /** Begins {@value #GROUPS} dialogs in one transaction, dialog i sending "gi", the first three times. */
    private static void sendGroups(InboundHarness h) {
        h.tx(s -> {
            for (int i = 0; i < GROUPS; i++) {
                Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET,
                        InboundHarness.CONTRACT, DialogOptions.defaults());
                for (int n = i == 0 ? 3 : 1; n > 0; n--) {
                    s.send(c.handle(), InboundHarness.REQUEST, ("g" + i).getBytes(UTF_8));
                }
            }
            return null;
        });
    }

    /** @return every group with messages, in the order the readers take them (the list without its limit) */
    private static List<String> allPendingGroups(InboundHarness h) {
        return h.tx(s -> h.db.broker().ledger(s.connection()).pendingGroups(InboundHarness.TARGET_QUEUE, 1000))
                .stream().map(g -> g.groupId().toString()).collect(Collectors.toList());
    }
}
