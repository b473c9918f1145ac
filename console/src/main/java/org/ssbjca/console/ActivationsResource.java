package org.ssbjca.console;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.List;

/**
 * The activations (one per message-driven bean) and what an operator does with them; every call goes to the
 * activation's MXBean ({@code org.ssbjca:type=Activation,name=...}). Reading needs the role {@code ssb-viewer} or
 * {@code ssb-operator}, changing {@code ssb-operator} (web.xml) and the header {@value CsrfFilter#HEADER}.
 */
@Path("activations")
@Produces(MediaType.APPLICATION_JSON)
public class ActivationsResource {

    private static final String INT = int.class.getName();
    private static final String LONG = long.class.getName();
    private static final String STRING = String.class.getName();
    /** The most dead letters one listing returns. */
    static final int MAX_LISTED = 1000;
    /** The body of {@code PUT max-readers}. */
    static final String MAX_READERS_BODY = "{\"value\": n}, n a whole number from 1 to 256";
    /** The body of {@code PUT groups/order}. */
    static final String ORDER_BODY = "a JSON array of 1 to 255 conversation group ids (strings)";
    /** The body of {@code PUT groups/{group}/priority}. */
    static final String PRIORITY_BODY = "{\"priority\": n}, n a whole number from 0 to 255";
    /** The body of {@code POST conversations/end}. */
    static final String END_BODY = "{\"service\": \"<service>\", \"state\": \"<state>\", \"olderThanMinutes\": n,"
            + " \"max\": n}, n whole numbers";

    private final AdapterBeans beans = new AdapterBeans();

    /** @return every activation with its readers, counters and delivery times */
    @GET
    public JsonArray list() {
        JsonArrayBuilder all = Json.createArrayBuilder();
        for (String name : beans.activationNames()) {
            all.add(beans.activation(name));
        }
        return all.build();
    }

    /** @return one activation */
    @GET
    @Path("{name}")
    public JsonObject one(@PathParam("name") String name) {
        return beans.activation(name).build();
    }

    /** Pauses the readers: deliveries in flight finish, none starts. */
    @POST
    @Path("{name}/pause")
    public JsonObject pause(@PathParam("name") String name) {
        beans.invoke(name, "pause", new String[0]);
        return one(name);
    }

    /** Lets paused readers go on. */
    @POST
    @Path("{name}/resume")
    public JsonObject resume(@PathParam("name") String name) {
        beans.invoke(name, "resume", new String[0]);
        return one(name);
    }

    /**
     * Enables the activation's queue (the broker doctor: a queue disabled by poison detection, or by hand) and lets
     * its parked readers go on: the MXBean's {@code enableQueue}.
     */
    @POST
    @Path("{name}/enable-queue")
    public JsonObject enableQueue(@PathParam("name") String name) {
        beans.invoke(name, "enableQueue", new String[0]);
        return one(name);
    }

    /**
     * @param body {@code {"value": n}}, 1 to 256
     * @return the activation
     */
    @PUT
    @Path("{name}/max-readers")
    @Consumes(MediaType.APPLICATION_JSON)
    public JsonObject maxReaders(@PathParam("name") String name, @Body(MAX_READERS_BODY) JsonObject body) {
        beans.set(name, "MaxReaders", intOf(body, "value", MAX_READERS_BODY));
        return one(name);
    }

    /** @return the pending conversation groups, in the order the readers will take them */
    @GET
    @Path("{name}/groups")
    public JsonValue groups(@PathParam("name") String name) {
        return beans.attribute(name, "PendingConversationGroups");
    }

    /**
     * Gives the listed groups priorities so that the readers take them in the listed order: the first gets the
     * highest. Groups not listed keep theirs.
     *
     * @param body a JSON array of conversation group ids, at most 255
     * @return the pending groups after the change
     */
    @PUT
    @Path("{name}/groups/order")
    @Consumes(MediaType.APPLICATION_JSON)
    public JsonValue order(@PathParam("name") String name, @Body(ORDER_BODY) JsonArray body) {
        if (body == null || body.isEmpty() || body.size() > 255) {
            throw new BadRequestException("expected " + ORDER_BODY + "; " + (body == null ? 0 : body.size())
                    + " listed");
        }
        List<String> groups = new ArrayList<>();
        for (JsonValue v : body) {
            if (!(v instanceof JsonString s)) {
                throw new BadRequestException("expected " + ORDER_BODY + "; one is " + v.getValueType());
            }
            groups.add(s.getString());
        }
        for (int i = 0; i < groups.size(); i++) {
            beans.invoke(name, "setPriority", new String[] {STRING, INT}, groups.get(i), 255 - i);
        }
        return groups(name);
    }

    /**
     * @param body {@code {"priority": n}}, 0 to 255
     * @return the pending groups after the change
     */
    @PUT
    @Path("{name}/groups/{group}/priority")
    @Consumes(MediaType.APPLICATION_JSON)
    public JsonValue priority(@PathParam("name") String name, @PathParam("group") String group,
            @Body(PRIORITY_BODY) JsonObject body) {
        beans.invoke(name, "setPriority", new String[] {STRING, INT}, group, intOf(body, "priority", PRIORITY_BODY));
        return groups(name);
    }

    /** @return the deliveries in flight: reader, group, messages, running time */
    @GET
    @Path("{name}/in-flight")
    public JsonValue inFlight(@PathParam("name") String name) {
        return beans.attribute(name, "InFlightDeliveries");
    }

    /**
     * A page of the dead letters, oldest first; the next page starts after the last id of this one.
     *
     * @param after only those with a greater id (0, the default: from the first)
     * @param max at most this many (1 to 1000)
     * @return the dead letters
     */
    @GET
    @Path("{name}/dead-letters")
    public JsonValue deadLetters(@PathParam("name") String name, @QueryParam("after") @DefaultValue("0") long after,
            @QueryParam("max") @DefaultValue("100") int max) {
        if (max < 1 || max > MAX_LISTED) {
            throw new BadRequestException("max must be between 1 and " + MAX_LISTED);
        }
        return beans.invoke(name, "listDeadLettersAfter", new String[] {LONG, INT}, after, max);
    }

    /** @return {@code {"redelivered": true|false}}: whether the bean took it and the transaction committed */
    @POST
    @Path("{name}/dead-letters/{id}/redeliver")
    public JsonObject redeliverOne(@PathParam("name") String name, @PathParam("id") long id) {
        JsonValue done = beans.invoke(name, "redeliverDeadLetter", new String[] {LONG}, id);
        return Json.createObjectBuilder().add("redelivered", done).build();
    }

    /**
     * @param messageType only dead letters of this type, or all when absent
     * @param max at most this many
     * @return {@code {"redelivered": n}}
     */
    @POST
    @Path("{name}/dead-letters/redeliver")
    public JsonObject redeliverAll(@PathParam("name") String name, @QueryParam("messageType") String messageType,
            @QueryParam("max") @DefaultValue("1000") int max) {
        JsonValue n = beans.invoke(name, "redeliverDeadLetters", new String[] {STRING, INT},
                messageType == null || messageType.isBlank() ? null : messageType, max);
        return Json.createObjectBuilder().add("redelivered", n).build();
    }

    /**
     * @param olderThanMinutes only those set aside more than this many minutes ago, or all when absent
     * @return {@code {"purged": n}}
     */
    @DELETE
    @Path("{name}/dead-letters")
    public JsonObject purge(@PathParam("name") String name, @QueryParam("olderThanMinutes") Long olderThanMinutes) {
        JsonValue n = olderThanMinutes == null ? beans.invoke(name, "purgeDeadLetters", new String[0])
                : beans.invoke(name, "purgeDeadLettersOlderThan", new String[] {LONG}, olderThanMinutes);
        return Json.createObjectBuilder().add("purged", n).build();
    }

    /**
     * The database's conversation endpoints by service and state ({@code service}, {@code state}, {@code count},
     * {@code oldestBegun}): the fire-and-forget leaks to look at before ending them.
     *
     * @param olderThanMinutes only those begun more than this many minutes ago (0, the default: all)
     * @return one entry per service and state
     */
    @GET
    @Path("{name}/conversations")
    public JsonValue conversations(@PathParam("name") String name,
            @QueryParam("olderThanMinutes") @DefaultValue("0") long olderThanMinutes) {
        return beans.invoke(name, "listConversations", new String[] {LONG}, olderThanMinutes);
    }

    /**
     * Ends WITH CLEANUP the oldest endpoints of one service in one state, at most {@code max}: the count the
     * listing showed, which the page asks the operator to confirm.
     *
     * @param body {@code {"service": ..., "state": ..., "olderThanMinutes": n, "max": n}}
     * @return {@code {"ended": n}}
     */
    @POST
    @Path("{name}/conversations/end")
    @Consumes(MediaType.APPLICATION_JSON)
    public JsonObject endConversations(@PathParam("name") String name, @Body(END_BODY) JsonObject body) {
        JsonValue n = beans.invoke(name, "endConversations", new String[] {STRING, STRING, LONG, INT},
                stringOf(body, "service", END_BODY), stringOf(body, "state", END_BODY),
                (long) intOf(body, "olderThanMinutes", END_BODY), intOf(body, "max", END_BODY));
        return Json.createObjectBuilder().add("ended", n).build();
    }

    private static String stringOf(JsonObject body, String key, String expected) {
        JsonValue v = field(body, key, expected);
        if (!(v instanceof JsonString s)) {
            throw new BadRequestException("expected " + expected + "; \"" + key + "\" is " + v.getValueType()
                    + ", not a string");
        }
        return s.getString();
    }

    private static int intOf(JsonObject body, String key, String expected) {
        JsonValue v = field(body, key, expected);
        if (v instanceof JsonNumber n && n.bigDecimalValue().stripTrailingZeros().scale() <= 0) {
            try {
                return n.bigDecimalValue().intValueExact();
            } catch (ArithmeticException tooLarge) {
                throw new BadRequestException("expected " + expected + "; \"" + key + "\" is out of range: " + n);
            }
        }
        throw new BadRequestException("expected " + expected + "; \"" + key + "\" is " + v.getValueType()
                + ", not a whole number");
    }

    private static JsonValue field(JsonObject body, String key, String expected) {
        JsonValue v = body == null ? null : body.get(key);
        if (v == null) {
            throw new BadRequestException("expected " + expected + "; \"" + key + "\" is missing");
        }
        return v;
    }
}
