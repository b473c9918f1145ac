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
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * The table activations (message-driven beans fed from an application's table) and what an operator does with their
 * set-aside rows; every call goes to the activation's MXBean ({@code org.ssbjca:type=TableActivation,name=...}).
 * Reading needs {@code ssb-viewer} or {@code ssb-operator}, acting {@code ssb-operator} and the header
 * {@value CsrfFilter#HEADER}, as for the queue activations; every change is logged with the user (SSBJCA0150).
 */
@Path("tables")
@Produces(MediaType.APPLICATION_JSON)
public class TablesResource {

    private static final String INT = int.class.getName();
    private static final String STRING = String.class.getName();
    private static final String DOUBLE = double.class.getName();
    /** The body of {@code POST set-aside/groups/redeliver}. */
    static final String GROUP_BODY = "{\"group\": \"<key>\", \"scan\": n}";

    private final AdapterBeans beans = new AdapterBeans();

    /** @return every table activation with its row counts (read from the table now) and counters */
    @GET
    public JsonArray list() {
        JsonArrayBuilder all = Json.createArrayBuilder();
        for (String name : beans.names(AdapterBeans.TABLE_ACTIVATION)) {
            all.add(beans.read(AdapterBeans.TABLE_ACTIVATION, name, AdapterBeans.TABLE_ATTRIBUTES));
        }
        return all.build();
    }

    /** @return {@code {"redelivered": n}}: the set-aside rows given another round of attempts */
    @POST
    @Path("{name}/set-aside/redeliver")
    public JsonObject redeliver(@PathParam("name") String name) {
        JsonValue n = beans.invoke(AdapterBeans.TABLE_ACTIVATION, name, "redeliverSetAside", new String[0]);
        return Json.createObjectBuilder().add("redelivered", n).build();
    }

    /**
     * @param scan how many set-aside rows to read at most, in key order (1 to 10000)
     * @return the set-aside rows grouped by failure: {@code key, exceptionClass, count, sampleKeys, exampleError}
     */
    @GET
    @Path("{name}/set-aside/groups")
    public JsonValue groups(@PathParam("name") String name, @QueryParam("scan") @DefaultValue("10000") int scan) {
        return beans.invoke(AdapterBeans.TABLE_ACTIVATION, name, "listSetAsideGroups", new String[] {INT}, scan);
    }

    /**
     * @param text found in the error, case ignored; empty for all (at most 200 characters)
     * @param scan how many set-aside rows to read at most, in key order (1 to 10000)
     * @return the set-aside rows found: {@code key, error}
     */
    @GET
    @Path("{name}/set-aside/search")
    public JsonValue search(@PathParam("name") String name, @QueryParam("text") @DefaultValue("") String text,
            @QueryParam("scan") @DefaultValue("10000") int scan) {
        return beans.invoke(AdapterBeans.TABLE_ACTIVATION, name, "searchSetAside", new String[] {STRING, INT}, text,
                scan);
    }

    /**
     * Gives one group of set-aside rows back to the readers, at once (the readers take them at their own pace).
     *
     * @param body {@value #GROUP_BODY}
     * @return {@code {"redelivered": n}}
     */
    @POST
    @Path("{name}/set-aside/groups/redeliver")
    @Consumes(MediaType.APPLICATION_JSON)
    public JsonObject redeliverGroup(@PathParam("name") String name, @Body(GROUP_BODY) JsonObject body) {
        if (body == null || !(body.get("group") instanceof JsonString group)) {
            throw new BadRequestException("expected " + GROUP_BODY);
        }
        int scan = body.get("scan") instanceof JsonNumber n ? n.intValue() : 10_000;
        JsonValue n = beans.invoke(AdapterBeans.TABLE_ACTIVATION, name, "redeliverSetAsideGroup",
                new String[] {STRING, INT}, group.getString(), scan);
        return Json.createObjectBuilder().add("redelivered", n).build();
    }

    /** The body of {@code POST set-aside/requeues}. */
    static final String REQUEUE_BODY = "{\"group\": \"<key>\" or \"keys\": [\"<key>\", ...], \"perSecond\": r,"
            + " \"scan\": n}, r over 0 and at most 1000";

    /**
     * Starts a throttled re-queue of a group's set-aside rows (among the first {@code scan}) or of chosen ones.
     *
     * @param body {@value #REQUEUE_BODY}
     * @return the job's progress
     */
    @POST
    @Path("{name}/set-aside/requeues")
    @Consumes(MediaType.APPLICATION_JSON)
    public JsonValue requeue(@PathParam("name") String name, @Body(REQUEUE_BODY) JsonObject body) {
        if (body == null) {
            throw new BadRequestException("expected " + REQUEUE_BODY);
        }
        double rate = FailuresResource.rateOf(body, REQUEUE_BODY);
        if (body.get("group") instanceof JsonString group) {
            int scan = body.get("scan") instanceof JsonNumber n ? n.intValue() : 10_000;
            return beans.invoke(AdapterBeans.TABLE_ACTIVATION, name, "startSetAsideGroupRequeue",
                    new String[] {STRING, INT, DOUBLE}, group.getString(), scan, rate);
        }
        if (body.get("keys") instanceof JsonArray keys) {
            String[] chosen = new String[keys.size()];
            for (int i = 0; i < chosen.length; i++) {
                if (!(keys.get(i) instanceof JsonString k)) {
                    throw new BadRequestException("expected " + REQUEUE_BODY + "; keys[" + i + "] is no text");
                }
                chosen[i] = k.getString();
            }
            return beans.invoke(AdapterBeans.TABLE_ACTIVATION, name, "startSetAsideRequeue",
                    new String[] {String[].class.getName(), DOUBLE}, chosen, rate);
        }
        throw new BadRequestException("expected " + REQUEUE_BODY + "; neither \"group\" nor \"keys\" is given");
    }

    /** @return the running or last re-queue's progress, or {@code null} when none was started */
    @GET
    @Path("{name}/set-aside/requeues/current")
    public JsonValue currentRequeue(@PathParam("name") String name) {
        return beans.attribute(AdapterBeans.TABLE_ACTIVATION, name, "RequeueJob");
    }

    /** @return {@code {"cancelled": true|false}}: whether a running re-queue was asked to stop */
    @POST
    @Path("{name}/set-aside/requeues/current/cancel")
    public JsonObject cancelRequeue(@PathParam("name") String name) {
        return Json.createObjectBuilder().add("cancelled",
                beans.invoke(AdapterBeans.TABLE_ACTIVATION, name, "cancelRequeue", new String[0])).build();
    }

    /** @return {@code {"purged": n}}: the set-aside rows deleted */
    @DELETE
    @Path("{name}/set-aside")
    public JsonObject purge(@PathParam("name") String name) {
        JsonValue n = beans.invoke(AdapterBeans.TABLE_ACTIVATION, name, "purgeSetAside", new String[0]);
        return Json.createObjectBuilder().add("purged", n).build();
    }
}
