/**
 * Small repositories shaped like express 4, fastify and kafka (their layout, naming and the way
 * their code is written: prototype methods, `lib/` + `test/` folders without `.test.` names,
 * Java `*Test.java` under `src/test/java`), for the demo model's answers on real projects.
 * Written by the tests into temp dirs; no network.
 */

/** `n` lines produced by `line(i)`, joined. */
const lines = (n: number, line: (i: number) => string): string => Array.from({ length: n }, (_, i) => line(i)).join("\n");

/** express 4: routing lives in lib/router/, while test/app.router.js and History.md mention routers far more often. */
export const EXPRESS: Record<string, string> = {
  "package.json": '{ "name": "express", "main": "index.js", "scripts": { "test": "mocha --require test/support/env --reporter spec --check-leaks test/ test/acceptance/" } }\n',
  "index.js": "module.exports = require('./lib/express');\n",
  "lib/express.js": `var Route = require('./router/route');
var Router = require('./router');
var proto = require('./application');
var req = require('./request');
var res = require('./response');

exports = module.exports = createApplication;

function createApplication() {
  var app = function(req, res, next) {
    app.handle(req, res, next);
  };
  mixin(app, proto, false);
  app.request = Object.create(req, { app: { value: app } });
  app.response = Object.create(res, { app: { value: app } });
  app.init();
  return app;
}

exports.Route = Route;
exports.Router = Router;
`,
  "lib/application.js": `var Router = require('./router');
var methods = require('methods');
var http = require('http');

var app = exports = module.exports = {};

app.init = function init() {
  this.cache = {};
  this.settings = {};
};

app.lazyrouter = function lazyrouter() {
  if (!this._router) {
    this._router = new Router({ caseSensitive: this.enabled('case sensitive routing'), strict: this.enabled('strict routing') });
  }
};

app.handle = function handle(req, res, callback) {
  var router = this._router;
  var done = callback || finalhandler(req, res, { env: this.get('env') });
  if (!router) {
    done();
    return;
  }
  router.handle(req, res, done);
};

app.use = function use(fn) {
  this.lazyrouter();
  var router = this._router;
  router.use(path, fn);
  return this;
};

app.route = function route(path) {
  this.lazyrouter();
  return this._router.route(path);
};

app.listen = function listen() {
  var server = http.createServer(this);
  return server.listen.apply(server, arguments);
};
`,
  "lib/router/index.js": `var Route = require('./route');
var Layer = require('./layer');
var parseUrl = require('parseurl');

var proto = module.exports = function(options) {
  var opts = options || {};
  function router(req, res, next) {
    router.handle(req, res, next);
  }
  Object.setPrototypeOf(router, proto);
  router.params = {};
  router.caseSensitive = opts.caseSensitive;
  router.stack = [];
  return router;
};

proto.param = function param(name, fn) {
  this.params[name] = this.params[name] || [];
  this.params[name].push(fn);
  return this;
};

proto.handle = function handle(req, res, out) {
  var self = this;
  var idx = 0;
  var stack = self.stack;
  next();

  function next(err) {
    var path = getPathname(req);
    var layer;
    var match;
    var route;
    while (match !== true && idx < stack.length) {
      layer = stack[idx++];
      match = matchLayer(layer, path);
      route = layer.route;
      if (match !== true) continue;
      if (!route) continue;
      var method = req.method;
      var has_method = route._handles_method(method);
      if (!has_method && method !== 'HEAD') match = false;
    }
    if (match !== true) return out(err);
    if (route) req.route = route;
    self.process_params(layer, {}, req, res, function (err) {
      if (route) return layer.handle_request(req, res, next);
      trim_prefix(layer, err, '', path);
    });
  }
};

proto.use = function use(fn) {
  var path = '/';
  var layer = new Layer(path, { sensitive: this.caseSensitive, end: false }, fn);
  layer.route = undefined;
  this.stack.push(layer);
  return this;
};

proto.route = function route(path) {
  var route = new Route(path);
  var layer = new Layer(path, { sensitive: this.caseSensitive, end: true }, route.dispatch.bind(route));
  layer.route = route;
  this.stack.push(layer);
  return route;
};

function getPathname(req) {
  return parseUrl(req).pathname;
}

function matchLayer(layer, path) {
  return layer.match(path);
}
`,
  "lib/router/route.js": `var Layer = require('./layer');

module.exports = Route;

function Route(path) {
  this.path = path;
  this.stack = [];
  this.methods = {};
}

Route.prototype._handles_method = function _handles_method(method) {
  return Boolean(this.methods[method.toLowerCase()]);
};

Route.prototype.dispatch = function dispatch(req, res, done) {
  var idx = 0;
  var stack = this.stack;
  req.route = this;
  next();
  function next(err) {
    var layer = stack[idx++];
    if (!layer) return done(err);
    layer.handle_request(req, res, next);
  }
};
`,
  "lib/router/layer.js": `var pathRegexp = require('path-to-regexp');

module.exports = Layer;

function Layer(path, options, fn) {
  this.handle = fn;
  this.name = fn.name || '<anonymous>';
  this.regexp = pathRegexp(path, this.keys = [], options);
}

Layer.prototype.match = function match(path) {
  return this.regexp.exec(path) !== null;
};
`,
  "lib/request.js": `var req = Object.create(http.IncomingMessage.prototype);
module.exports = req;

req.get = req.header = function header(name) {
  return this.headers[name.toLowerCase()];
};

defineGetter(req, 'query', function query() {
  var queryparse = this.app.get('query parser fn');
  return queryparse(parseUrl(this).query);
});
`,
  "lib/response.js": `var cookie = require('cookie');
var sign = require('cookie-signature').sign;
var res = Object.create(http.ServerResponse.prototype);
module.exports = res;

res.status = function status(code) {
  this.statusCode = code;
  return this;
};

res.send = function send(body) {
  this.end(body);
  return this;
};

res.clearCookie = function clearCookie(name, options) {
  var opts = merge({ expires: new Date(1), path: '/' }, options);
  return this.cookie(name, '', opts);
};

res.cookie = function (name, value, options) {
  var opts = merge({}, options);
  var secret = this.req.secret;
  var val = typeof value === 'object' ? 'j:' + JSON.stringify(value) : String(value);
  if (opts.signed) val = 's:' + sign(val, secret);
  if (opts.maxAge != null) opts.expires = new Date(Date.now() + opts.maxAge);
  this.append('Set-Cookie', cookie.serialize(name, String(val), opts));
  return this;
};
`,
  "test/app.router.js": `var express = require('../');
var request = require('supertest');

describe('app.router', function(){
${lines(40, (i) => `  it('should route case ${i} through the router', function(done){
    var app = express();
    var router = new express.Router();
    router.get('/route${i}', function(req, res){ res.end('routed ${i}'); });
    app.use(router);
    request(app).get('/route${i}').expect('routed ${i}', done);
  });`)}
});
`,
  "test/Router.js": `var express = require('../');
var Router = express.Router;

describe('Router', function(){
${lines(12, (i) => `  it('should support router case ${i}', function(){
    var router = new Router();
    router.route('/foo${i}').get(function(){});
  });`)}
});
`,
  "test/res.cookie.js": `var express = require('../');
var request = require('supertest');

describe('res', function(){
  describe('.cookie(name, string)', function(){
    it('should set a cookie', function(done){
      var app = express();
      app.use(function(req, res){ res.cookie('name', 'tobi').end(); });
      request(app).get('/').expect('Set-Cookie', 'name=tobi; Path=/', done);
    });
  });
});
`,
  "History.md": lines(60, (i) => `4.${i}.0 / 2014\n==========\n  * Fix router handling of route ${i}\n  * Improve routing performance in router.handle`) + "\n",
  "examples/route-separation/index.js": "var express = require('../..');\nvar app = module.exports = express();\napp.get('/', site.index);\napp.get('/users', user.list);\n",
  "examples/cookies/index.js": "var express = require('../..');\nvar app = module.exports = express();\napp.get('/remember', function(req, res){\n  res.cookie('remember', 1, { maxAge: 60000 });\n  res.redirect('back');\n});\n",
};

/** fastify: the main fastify.js mentions everything; routes, hooks and validation live in lib/. */
export const FASTIFY: Record<string, string> = {
  "package.json": '{ "name": "fastify", "main": "fastify.js", "scripts": { "test": "npm run lint && npm run unit", "unit": "borp" } }\n',
  "fastify.js": `'use strict'
const { buildRouting, validateBodyLimitOption } = require('./lib/route')
const { Hooks, hookRunnerApplication, supportedHooks } = require('./lib/hooks')
const { compileSchemasForValidation } = require('./lib/validation')

function fastify (options) {
  const router = buildRouting({ config: { caseSensitive: options.caseSensitive } })
  const fastify = {
    [kHooks]: new Hooks(),
    // routes shorthand methods
    get: function _get (url, options, handler) {
      return router.prepareRoute.call(this, { method: 'GET', url, options, handler })
    },
    // extended route
    route: function _route (options) {
      return router.route.call(this, { options })
    },
    addHook,
    ready,
    listen
  }
  function addHook (name, fn) {
    if (!supportedHooks.includes(name)) throw new Error('unsupported hook ' + name)
    this[kHooks].add(name, fn)
    return this
  }
  function ready (cb) {
    hookRunnerApplication('onReady', fastify, cb)
  }
  return fastify
}

module.exports = fastify
`,
  "lib/route.js": `'use strict'
const FindMyWay = require('find-my-way')
const { onRequestHookRunner, preHandlerHookRunner } = require('./hooks')
const { compileSchemasForValidation } = require('./validation')

function buildRouting (options) {
  const router = FindMyWay(options.config)
  return {
    route,
    prepareRoute,
    routing: router.lookup.bind(router),
    hasRoute
  }

  function prepareRoute ({ method, url, options, handler }) {
    return route.call(this, { options: { ...options, method, url, handler } })
  }

  function hasRoute ({ options }) {
    return router.hasRoute(options.method, options.url)
  }

  // Route management
  function route ({ options }) {
    const opts = { ...options }
    const context = new Context({ schema: opts.schema, handler: opts.handler })
    compileSchemasForValidation(context, opts.validatorCompiler)
    router.on(opts.method, opts.url, { constraints: opts.constraints }, routeHandler, context)
    return this
  }

  function routeHandler (req, res, params, context, query) {
    const request = new context.Request(params, req, query)
    const reply = new context.Reply(res, request)
    onRequestHookRunner(context.onRequest, request, reply, runPreParsing)
  }
}

module.exports = { buildRouting }
`,
  "lib/hooks.js": `'use strict'
const supportedHooks = ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend', 'onResponse', 'onError']

function Hooks () {
  this.onRequest = []
  this.preParsing = []
  this.preValidation = []
  this.preHandler = []
  this.onSend = []
  this.onResponse = []
}

Hooks.prototype.add = function (hook, fn) {
  if (typeof fn !== 'function') throw new Error('hook not a function')
  this[hook].push(fn)
}

function hookRunnerGenerator (iterator) {
  return function hookRunner (functions, request, reply, cb) {
    let i = 0
    function next (err) {
      if (err || i === functions.length) {
        cb(err, request, reply)
        return
      }
      const result = iterator(functions[i++], request, reply, next)
      if (result && typeof result.then === 'function') result.then(handleResolve, handleReject)
    }
    next()
  }
}

function hookIterator (fn, request, reply, next) {
  return fn.call(request.server, request, reply, next)
}

const onRequestHookRunner = hookRunnerGenerator(hookIterator)
const preHandlerHookRunner = hookRunnerGenerator(hookIterator)

function hookRunnerApplication (hookName, boot, server, cb) {
  const hooks = server[kHooks][hookName]
  let i = 0
  next()
  function next (err) {
    if (err || i === hooks.length) return cb(err)
    hooks[i++].call(server, next)
  }
}

module.exports = { Hooks, onRequestHookRunner, preHandlerHookRunner, hookRunnerApplication, supportedHooks }
`,
  "lib/validation.js": `'use strict'
const { kSchemaHeaders, kSchemaParams, kSchemaQuerystring, kSchemaBody } = require('./symbols')

function compileSchemasForValidation (context, compile) {
  const { schema } = context
  if (!schema) return
  if (schema.headers) context[kSchemaHeaders] = compile({ schema: schema.headers, httpPart: 'headers' })
  if (schema.body) context[kSchemaBody] = compile({ schema: schema.body, httpPart: 'body' })
  if (schema.querystring) context[kSchemaQuerystring] = compile({ schema: schema.querystring, httpPart: 'querystring' })
  if (schema.params) context[kSchemaParams] = compile({ schema: schema.params, httpPart: 'params' })
}

function validateParam (validatorFunction, request, paramName) {
  const isUndefined = request[paramName] === undefined
  const ret = validatorFunction && validatorFunction(isUndefined ? null : request[paramName])
  if (ret === false) return validatorFunction.errors
  return null
}

function validate (context, request, execution) {
  const params = validateParam(context[kSchemaParams], request, 'params')
  if (params) return wrapValidationError(params, 'params', context.schemaErrorFormatter)
  const body = validateParam(context[kSchemaBody], request, 'body')
  if (body) return wrapValidationError(body, 'body', context.schemaErrorFormatter)
  return false
}

function wrapValidationError (result, dataVar, schemaErrorFormatter) {
  const error = schemaErrorFormatter(result, dataVar)
  error.validation = result
  error.validationContext = dataVar
  return error
}

module.exports = { compileSchemasForValidation, validate }
`,
  "lib/handleRequest.js": `'use strict'
const { validate } = require('./validation')
const { preValidationHookRunner } = require('./hooks')

function handleRequest (err, request, reply) {
  if (reply.sent === true) return
  if (err != null) {
    reply.send(err)
    return
  }
  preValidationHookRunner(reply[kRouteContext].preValidation, request, reply, preValidationCallback)
}

function preValidationCallback (err, request, reply) {
  const validationErr = validate(reply[kRouteContext], request)
  if (validationErr) {
    reply.status(400).send(validationErr)
  }
}

module.exports = handleRequest
`,
  "test/route.test.js": `'use strict'
const { test } = require('node:test')
const Fastify = require('..')
${lines(25, (i) => `test('route ${i}: registers a route with fastify.route', (t, done) => {
  const fastify = Fastify()
  fastify.route({ method: 'GET', url: '/route${i}', handler: (req, reply) => reply.send({ hello: 'world' }) })
  fastify.inject({ method: 'GET', url: '/route${i}' }, done)
})`)}
`,
  "test/hooks.test.js": `'use strict'
const { test } = require('node:test')
const Fastify = require('..')
${lines(25, (i) => `test('hooks ${i}: onRequest hook runs before the handler', (t, done) => {
  const fastify = Fastify()
  fastify.addHook('onRequest', (request, reply, next) => next())
  fastify.addHook('preHandler', (request, reply, next) => next())
  fastify.inject({ method: 'GET', url: '/' }, done)
})`)}
`,
  "test/schema-validation.test.js": `'use strict'
const { test } = require('node:test')
const Fastify = require('..')
${lines(10, (i) => `test('validation ${i}: the body is validated against the schema', (t, done) => {
  const fastify = Fastify()
  fastify.post('/', { schema: { body: { type: 'object' } } }, (req, reply) => reply.send(req.body))
  fastify.inject({ method: 'POST', url: '/', payload: 'not json' }, done)
})`)}
`,
  "docs/Reference/Routes.md": `# Routes\n\nThe route methods will configure the endpoints of your application.\n\n${lines(20, (i) => `## Route option ${i}\n\nA route can take option ${i}; see the routes shorthand.`)}\n`,
  "docs/Reference/Hooks.md": `# Hooks\n\nHooks are registered with the fastify.addHook method.\n\n${lines(20, (i) => `## Hook ${i}\n\nThe hook ${i} runs at its point in the request lifecycle.`)}\n`,
  "docs/Reference/Validation-and-Serialization.md": `# Validation and Serialization\n\n${lines(15, (i) => `Route validation ${i} uses the JSON schema of the route.`)}\n`,
};

/** kafka: log segments are deleted in storage's UnifiedLog; a metadata class says "delete" even more often. */
export const KAFKA: Record<string, string> = {
  "build.gradle": "project(':clients') {}\nproject(':storage') {}\nproject(':metadata') {}\n",
  "storage/src/main/java/org/apache/kafka/storage/internals/log/UnifiedLog.java": `package org.apache.kafka.storage.internals.log;

import java.util.List;

public class UnifiedLog implements AutoCloseable {
    private final LocalLog localLog;
    private final LogConfig config;

    public UnifiedLog(LocalLog localLog, LogConfig config) {
        this.localLog = localLog;
        this.config = config;
    }

    /**
     * Delete any local log segments starting with the oldest segment and moving forward until
     * the retention limits are met.
     */
    public int deleteOldSegments() {
        if (config.delete) {
            return deleteLogStartOffsetBreachedSegments() + deleteRetentionSizeBreachedSegments() + deleteRetentionMsBreachedSegments();
        }
        return deleteLogStartOffsetBreachedSegments();
    }

    private int deleteSegments(List<LogSegment> deletable, SegmentDeletionReason reason) {
        if (deletable.isEmpty()) return 0;
        localLog.removeAndDeleteSegments(deletable, true, reason);
        return deletable.size();
    }

    private int deleteRetentionMsBreachedSegments() {
        long retentionMs = config.retentionMs;
        if (retentionMs < 0) return 0;
        return deleteSegments(localLog.segmentsOlderThan(retentionMs), SegmentDeletionReason.RETENTION_MS);
    }

    private int deleteRetentionSizeBreachedSegments() {
        return deleteSegments(localLog.segmentsOverSize(config.retentionSize), SegmentDeletionReason.RETENTION_SIZE);
    }

    private int deleteLogStartOffsetBreachedSegments() {
        return deleteSegments(localLog.segmentsBelow(logStartOffset()), SegmentDeletionReason.LOG_START_OFFSET);
    }

    public long logStartOffset() {
        return localLog.logStartOffset();
    }

    @Override
    public void close() {
        localLog.close();
    }
}
`,
  "storage/src/main/java/org/apache/kafka/storage/internals/log/LocalLog.java": `package org.apache.kafka.storage.internals.log;

public class LocalLog {
    public void removeAndDeleteSegments(Iterable<LogSegment> segmentsToDelete, boolean asyncDelete, SegmentDeletionReason reason) {
        for (LogSegment segment : segmentsToDelete) segments.remove(segment.baseOffset());
        deleteSegmentFiles(segmentsToDelete, asyncDelete);
    }

    public long logStartOffset() {
        return logStartOffset;
    }
}
`,
  "storage/src/main/java/org/apache/kafka/storage/internals/log/LogSegment.java": `package org.apache.kafka.storage.internals.log;

public class LogSegment implements Closeable {
    public long baseOffset() {
        return baseOffset;
    }

    public void deleteIfExists() throws IOException {
        Utils.delete(log.file());
    }
}
`,
  "metadata/src/main/java/org/apache/kafka/controller/ReplicationControlManager.java": `package org.apache.kafka.controller;

public class ReplicationControlManager {
    private final Logger log;

${lines(30, (i) => `    void deleteTopic${i}(Uuid id, List<ApiMessageAndVersion> records) {
        log.info("Deleting topic ${i} {}: delete requested, deleted partitions will be removed", id);
        records.add(new ApiMessageAndVersion(new RemoveTopicRecord().setTopicId(id), (short) 0));
    }`)}
}
`,
  "clients/src/main/java/org/apache/kafka/clients/consumer/KafkaConsumer.java": `package org.apache.kafka.clients.consumer;

public class KafkaConsumer<K, V> implements Consumer<K, V> {
    private final ConsumerDelegate<K, V> delegate;

    public KafkaConsumer(Properties properties) {
        this.delegate = CREATOR.create(properties);
    }

    @Override
    public ConsumerRecords<K, V> poll(final Duration timeout) {
        return delegate.poll(timeout);
    }
}
`,
  "clients/src/test/java/org/apache/kafka/clients/consumer/KafkaConsumerTest.java": `package org.apache.kafka.clients.consumer;

public class KafkaConsumerTest {
${lines(15, (i) => `    @Test
    public void testConsumerPoll${i}() {
        KafkaConsumer<String, String> consumer = newConsumer();
        consumer.poll(Duration.ZERO);
    }`)}
}
`,
  "storage/src/test/java/org/apache/kafka/storage/internals/log/UnifiedLogTest.java": `package org.apache.kafka.storage.internals.log;

public class UnifiedLogTest {
    @Test
    public void testDeleteOldSegments() {
        UnifiedLog log = createLog();
        assertEquals(2, log.deleteOldSegments());
    }
}
`,
  // Routing records to partitions: the partitioner defines it; a byte buffer class says "records" far more often.
  "clients/src/main/java/org/apache/kafka/clients/producer/internals/BuiltInPartitioner.java": `package org.apache.kafka.clients.producer.internals;

public class BuiltInPartitioner {
    private final String topic;

    /**
     * Calculate the partition a record is routed to when the record has no key: sticky until the batch is full.
     */
    public int peekCurrentPartitionInfo(Cluster cluster) {
        return nextPartition(cluster);
    }

    private int nextPartition(Cluster cluster) {
        List<PartitionInfo> availablePartitions = cluster.availablePartitionsForTopic(topic);
        return availablePartitions.get(Utils.toPositive(random.nextInt()) % availablePartitions.size()).partition();
    }

    /** The partition a keyed record goes to: the murmur2 hash of its key over the number of partitions. */
    public static int partitionForKey(final byte[] serializedKey, final int numPartitions) {
        return Utils.toPositive(Utils.murmur2(serializedKey)) % numPartitions;
    }
}
`,
  "clients/src/main/java/org/apache/kafka/clients/producer/KafkaProducer.java": `package org.apache.kafka.clients.producer;

public class KafkaProducer<K, V> implements Producer<K, V> {
    public Future<RecordMetadata> send(ProducerRecord<K, V> record, Callback callback) {
        return doSend(record, callback);
    }

    private int partition(ProducerRecord<K, V> record, byte[] serializedKey, Cluster cluster) {
        if (record.partition() != null) return record.partition();
        if (serializedKey != null) return BuiltInPartitioner.partitionForKey(serializedKey, cluster.partitionsForTopic(record.topic()).size());
        return RecordMetadata.UNKNOWN_PARTITION;
    }
}
`,
  "clients/src/main/java/org/apache/kafka/common/record/MemoryRecordsBuilder.java": `package org.apache.kafka.common.record;

public class MemoryRecordsBuilder implements AutoCloseable {
    private final ByteBufferOutputStream bufferStream;

${lines(25, (i) => `    public void appendRecords${i}(MemoryRecords records) {
        // records appended to the buffer; records of partition ${i} are written as a batch of records
        for (Record record : records.records()) appendWithOffset(record.offset(), record);
    }`)}
}
`,
  // Rebalancing a consumer group: the coordinator does it; the config class mentions it in every doc string.
  "clients/src/main/java/org/apache/kafka/clients/consumer/internals/ConsumerCoordinator.java": `package org.apache.kafka.clients.consumer.internals;

public final class ConsumerCoordinator extends AbstractCoordinator {
    private final ConsumerRebalanceListenerInvoker rebalanceListenerInvoker;

    @Override
    protected boolean onJoinPrepare(Timer timer, int generation, String memberId) {
        return revokePartitions(subscriptions.assignedPartitions());
    }

    /** Starts a rebalance of the consumer group when the subscription or the metadata changed. */
    public boolean rejoinNeededOrPending() {
        return super.rejoinNeededOrPending() || subscriptions.hasPatternSubscription();
    }

    boolean rebalanceInProgress() {
        return state == MemberState.PREPARING_REBALANCE || state == MemberState.COMPLETING_REBALANCE;
    }

    void maybeTriggerRebalance(String reason) {
        requestRejoin(reason);
    }
}
`,
  "clients/src/main/java/org/apache/kafka/clients/consumer/ConsumerConfig.java": `package org.apache.kafka.clients.consumer;

public class ConsumerConfig extends AbstractConfig {
${lines(20, (i) => `    public static final String GROUP_SETTING_${i}_CONFIG = "group.setting.${i}";
    private static final String GROUP_SETTING_${i}_DOC = "How the consumer group behaves in a rebalance: the consumer waits for the group rebalance, the group rebalance timeout ${i}.";`)}
}
`,
  "clients/src/main/java/org/apache/kafka/clients/admin/ListConsumerGroupOffsetsSpec.java": `package org.apache.kafka.clients.admin;

/** Specification of consumer group offsets to list. */
public class ListConsumerGroupOffsetsSpec {
    private Collection<TopicPartition> topicPartitions;

${lines(6, (i) => `    // the offsets ${i} of the consumer group's partitions`)}
}
`,
  "clients/src/test/java/org/apache/kafka/clients/consumer/internals/ConsumerCoordinatorTest.java": `package org.apache.kafka.clients.consumer.internals;

public class ConsumerCoordinatorTest {
${lines(8, (i) => `    @Test
    public void testRebalance${i}() {
        ConsumerCoordinator coordinator = buildCoordinator();
        assertTrue(coordinator.rebalanceInProgress());
    }`)}
}
`,
  "clients/src/test/java/org/apache/kafka/clients/producer/internals/BuiltInPartitionerTest.java": `package org.apache.kafka.clients.producer.internals;

public class BuiltInPartitionerTest {
${lines(6, (i) => `    @Test
    public void testStickyPartition${i}() {
        BuiltInPartitioner partitioner = new BuiltInPartitioner("topic");
        assertEquals(${i}, partitioner.peekCurrentPartitionInfo(cluster));
    }`)}
}
`,
  // Segment deletion: remote storage copies segments (and says "segments" everywhere) but deletes nothing.
  "storage/src/main/java/org/apache/kafka/server/log/remote/storage/RemoteLogManager.java": `package org.apache.kafka.server.log.remote.storage;

public class RemoteLogManager {
${lines(12, (i) => `    // old log segments ${i}: segments are copied to remote storage before local segments are deleted by retention
    public void copyLogSegment${i}(UnifiedLog log, LogSegment segment) {
        remoteLogStorageManager.copyLogSegmentData(segment.metadata(), segment.data());
    }`)}
}
`,
  "docs/ops.html": "<h3>Log retention</h3>\n<p>Old log segments are deleted once log.retention.hours is reached.</p>\n",
};

/**
 * Ink itself, for its README's first question ("where is the login handled?"): no code defines a
 * login; the word is in examples in comments and strings, and test files use it as sample data.
 */
export const INK: Record<string, string> = {
  "package.json": '{ "name": "ink-agent", "type": "module", "scripts": { "test": "vitest run" } }\n',
  "src/providers/demo-keywords.ts": `/**
 * Keyword extraction for the demo model: turns a request such as "where is the login handled?"
 * into search terms ("login").
 */
export function extractKeywords(prompt: string): string[] {
  return prompt.split(/\\s+/).filter((w) => w.length > 3);
}
`,
  "src/tools/find.ts": `/** find: file names matching a glob (\`**/login*\` finds src/auth/login.ts). */
export function find(pattern: string, cwd: string): string[] {
  return glob(pattern, { cwd });
}
`,
  "src/subagents/tools/task-schema.ts": `export const TASK_DESCRIPTION = "Start a subagent. Example: { prompt: 'find the login tests', description: 'login tests' }";
export function taskSchema(): object {
  return { description: TASK_DESCRIPTION };
}
`,
  "components/state/agent-stream-reducer.test.tsx": `import { describe, expect, it } from "vitest";

describe("reduceStream: children", () => {
${lines(20, (i) => `  it("shows child ${i} of the login search", () => {
    const state = reduce(start({ prompt: "find the login code ${i}", description: "login ${i}" }));
    expect(state.children[${i}].label).toBe("login ${i}");
  });`)}
});
`,
  "test/providers/demo.test.ts": `import { it, expect } from "vitest";

const GREP = [
  "src/auth/login.ts:3:export function handleLogin(req: Request): Response {",
  "test/auth/login.test.ts:5:import { handleLogin } from '../../src/auth/login.js';",
];
${lines(10, (i) => `it("answers the login question ${i}", () => {
  expect(answer("where is the login handled?", GREP)).toContain("login");
});`)}
`,
  "components/App.test.tsx": `${lines(12, (i) => `it("types the login question ${i}", async () => {
  await typeAndSubmit(app, "where is login ${i}?");
});`)}
`,
};
