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
 * {@value CsrfFilter#HEADER}, as for the queue activations.
 */
@Path("tables")
@Produces(MediaType.APPLICATION_JSON)
public class TablesResource {

    private static final String INT = int.class.getName();
    private static final String STRING = String.class.getName();
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

    /** @return {@code {"purged": n}}: the set-aside rows deleted */
    @DELETE
    @Path("{name}/set-aside")
    public JsonObject purge(@PathParam("name") String name) {
        JsonValue n = beans.invoke(AdapterBeans.TABLE_ACTIVATION, name, "purgeSetAside", new String[0]);
        return Json.createObjectBuilder().add("purged", n).build();
    }
}
