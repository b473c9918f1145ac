package org.ssbjca.console;

import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseBroadcaster;
import jakarta.ws.rs.sse.SseEventSink;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import javax.management.InstanceNotFoundException;
import javax.management.MBeanServer;
import javax.management.MBeanServerDelegate;
import javax.management.MBeanServerNotification;
import javax.management.JMException;
import javax.management.Notification;
import javax.management.NotificationListener;
import javax.management.ObjectName;

/**
 * Live notifications as server-sent events: the activations' JMX notifications (a message dead-lettered, a queue
 * disabled, a reader reconnecting), each as an event named after its type with
 * {@code {"type", "activation", "time", "message", "data"}}. One listener per activation MBean, added when it is
 * registered; every open stream gets every event.
 */
@Path("events")
public class EventsResource {

    private static final Object LOCK = new Object();
    private static final NotificationListener FORWARD = EventsResource::forward;
    private static SseBroadcaster broadcaster;
    private static Sse events;
    private static NotificationListener registrations;

    /** @param sink the client's stream, open until it goes away */
    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public void subscribe(@Context SseEventSink sink, @Context Sse sse) {
        broadcaster(sse).register(sink);
        sink.send(sse.newEventBuilder().name("hello").data("{\"time\":\"" + Instant.now() + "\"}").build());
    }

    private static SseBroadcaster broadcaster(Sse sse) {
        synchronized (LOCK) {
            if (broadcaster == null) {
                events = sse;
                broadcaster = sse.newBroadcaster();
                listen();
            }
            return broadcaster;
        }
    }

    private static void listen() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName activations = AdapterBeans.pattern("org.ssbjca:type=Activation,*");
        registrations = (n, handback) -> {
            if (n instanceof MBeanServerNotification r
                    && MBeanServerNotification.REGISTRATION_NOTIFICATION.equals(r.getType())
                    && activations.apply(r.getMBeanName())) {
                addListener(server, r.getMBeanName(), FORWARD);
            }
        };
        try {
            server.addNotificationListener(MBeanServerDelegate.DELEGATE_NAME, registrations, null, null);
        } catch (InstanceNotFoundException e) {
            throw new IllegalStateException(e);
        }
        for (ObjectName n : server.queryNames(activations, null)) {
            addListener(server, n, FORWARD);
        }
    }

    private static void addListener(MBeanServer server, ObjectName activation, NotificationListener listener) {
        try {
            server.addNotificationListener(activation, listener, null, activation);
        } catch (InstanceNotFoundException | IllegalArgumentException gone) {
            // unregistered meanwhile, or it sends none
        }
    }

    private static void forward(Notification n, Object handback) {
        JsonObjectBuilder json = Json.createObjectBuilder().add("type", n.getType())
                .add("activation", handback instanceof ObjectName o ? AdapterBeans.activationOf(o) : "")
                .add("time", Instant.ofEpochMilli(n.getTimeStamp()).toString())
                .add("message", n.getMessage() == null ? "" : n.getMessage())
                .add("data", AdapterBeans.toJson(n.getUserData()));
        synchronized (LOCK) {
            if (broadcaster != null) {
                broadcaster.broadcast(events.newEventBuilder().name(n.getType())
                        .mediaType(MediaType.APPLICATION_JSON_TYPE).data(json.build().toString()).build());
            }
        }
    }

    /** Stops forwarding: removes every listener this class added and closes the streams (on undeploy). */
    static void close() {
        synchronized (LOCK) {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            for (ObjectName n : server.queryNames(AdapterBeans.pattern("org.ssbjca:type=Activation,*"), null)) {
                try {
                    server.removeNotificationListener(n, FORWARD);
                } catch (JMException notListening) {
                    // added none there
                }
            }
            if (registrations != null) {
                try {
                    server.removeNotificationListener(MBeanServerDelegate.DELEGATE_NAME, registrations);
                } catch (JMException gone) {
                    // nothing to remove
                }
                registrations = null;
            }
            if (broadcaster != null) {
                broadcaster.close();
                broadcaster = null;
            }
            events = null;
        }
    }
}
