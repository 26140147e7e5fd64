// \0rolldown/runtime.js
var e = Object.defineProperty, t = Object.getOwnPropertyDescriptor, n = Object.getOwnPropertyNames, r = Object.prototype.hasOwnProperty, i = (e, t, n) => () => {
	if (n) throw n[0];
	try {
		return e && (t = e(e = 0)), t;
	} catch (e) {
		throw n = [e], e;
	}
}, a = (e, t) => () => (t || (e((t = { exports: {} }).exports, t, t.exports), e = null), t.exports), o = (t, n) => {
	let r = Object.setPrototypeOf({}, null);
	for (var i in t) e(r, i, {
		get: t[i],
		enumerable: !0
	});
	return n & 1 || e(r, Symbol.toStringTag, { value: "Module" }), n & 2 ? r : Object.preventExtensions(r);
}, s = (i, a, o, s) => {
	if (a && typeof a == "object" || typeof a == "function") for (var c = n(a), l = 0, u = c.length, d; l < u; l++) d = c[l], !r.call(i, d) && d !== o && e(i, d, {
		get: ((e) => a[e]).bind(null, d),
		enumerable: !(s = t(a, d)) || s.enumerable
	});
	return i;
}, c = (t) => r.call(t, "module.exports") ? t["module.exports"] : s(e({}, "__esModule", { value: !0 }), t), l = /* @__PURE__ */ o({
	ArrayExt: () => y,
	StringExt: () => ge,
	chain: () => u,
	each: () => ne,
	empty: () => d,
	enumerate: () => f,
	every: () => re,
	filter: () => p,
	find: () => m,
	findIndex: () => h,
	map: () => ae,
	max: () => _,
	min: () => g,
	minmax: () => v,
	once: () => le,
	range: () => oe,
	reduce: () => se,
	repeat: () => ce,
	retro: () => ue,
	some: () => ie,
	stride: () => fe,
	take: () => pe,
	toArray: () => ee,
	toObject: () => te,
	topologicSort: () => de,
	zip: () => me
});
function* u(...e) {
	for (let t of e) yield* t;
}
function* d() {}
function* f(e, t = 0) {
	for (let n of e) yield [t++, n];
}
function* p(e, t) {
	let n = 0;
	for (let r of e) t(r, n++) && (yield r);
}
function m(e, t) {
	let n = 0;
	for (let r of e) if (t(r, n++)) return r;
}
function h(e, t) {
	let n = 0;
	for (let r of e) if (t(r, n++)) return n - 1;
	return -1;
}
function g(e, t) {
	let n;
	for (let r of e) (n === void 0 || t(r, n) < 0) && (n = r);
	return n;
}
function _(e, t) {
	let n;
	for (let r of e) (n === void 0 || t(r, n) > 0) && (n = r);
	return n;
}
function v(e, t) {
	let n = !0, r, i;
	for (let a of e) n ? (r = a, i = a, n = !1) : t(a, r) < 0 ? r = a : t(a, i) > 0 && (i = a);
	return n ? void 0 : [r, i];
}
function ee(e) {
	return Array.from(e);
}
function te(e) {
	let t = {};
	for (let [n, r] of e) t[n] = r;
	return t;
}
function ne(e, t) {
	let n = 0;
	for (let r of e) if (!1 === t(r, n++)) return;
}
function re(e, t) {
	let n = 0;
	for (let r of e) if (!1 === t(r, n++)) return !1;
	return !0;
}
function ie(e, t) {
	let n = 0;
	for (let r of e) if (t(r, n++)) return !0;
	return !1;
}
function* ae(e, t) {
	let n = 0;
	for (let r of e) yield t(r, n++);
}
function* oe(e, t, n) {
	t === void 0 ? (t = e, e = 0, n = 1) : n === void 0 && (n = 1);
	let r = he.rangeLength(e, t, n);
	for (let t = 0; t < r; t++) yield e + n * t;
}
function se(e, t, n) {
	let r = e[Symbol.iterator](), i = 0, a = r.next();
	if (a.done && n === void 0) throw TypeError("Reduce of empty iterable with no initial value.");
	if (a.done) return n;
	let o = r.next();
	if (o.done && n === void 0) return a.value;
	if (o.done) return t(n, a.value, i++);
	let s;
	s = t(n === void 0 ? a.value : t(n, a.value, i++), o.value, i++);
	let c;
	for (; !(c = r.next()).done;) s = t(s, c.value, i++);
	return s;
}
function* ce(e, t) {
	for (; 0 < t--;) yield e;
}
function* le(e) {
	yield e;
}
function* ue(e) {
	if (typeof e.retro == "function") yield* e.retro();
	else for (let t = e.length - 1; t > -1; t--) yield e[t];
}
function de(e) {
	let t = [], n = /* @__PURE__ */ new Set(), r = /* @__PURE__ */ new Map();
	for (let t of e) i(t);
	for (let [e] of r) a(e);
	return t;
	function i(e) {
		let [t, n] = e, i = r.get(n);
		i ? i.push(t) : r.set(n, [t]);
	}
	function a(e) {
		if (n.has(e)) return;
		n.add(e);
		let i = r.get(e);
		if (i) for (let e of i) a(e);
		t.push(e);
	}
}
function* fe(e, t) {
	let n = 0;
	for (let r of e) n++ % t === 0 && (yield r);
}
function* pe(e, t) {
	if (t < 1) return;
	let n = e[Symbol.iterator](), r;
	for (; 0 < t-- && !(r = n.next()).done;) yield r.value;
}
function* me(...e) {
	let t = e.map((e) => e[Symbol.iterator]()), n = t.map((e) => e.next());
	for (; re(n, (e) => !e.done); n = t.map((e) => e.next())) yield n.map((e) => e.value);
}
var y, he, ge, _e = i((() => {
	(function(e) {
		function t(e, t, n = 0, r = -1) {
			let i = e.length;
			if (i === 0) return -1;
			n = n < 0 ? Math.max(0, n + i) : Math.min(n, i - 1), r = r < 0 ? Math.max(0, r + i) : Math.min(r, i - 1);
			let a;
			a = r < n ? r + 1 + (i - n) : r - n + 1;
			for (let r = 0; r < a; ++r) {
				let a = (n + r) % i;
				if (e[a] === t) return a;
			}
			return -1;
		}
		e.firstIndexOf = t;
		function n(e, t, n = -1, r = 0) {
			let i = e.length;
			if (i === 0) return -1;
			n = n < 0 ? Math.max(0, n + i) : Math.min(n, i - 1), r = r < 0 ? Math.max(0, r + i) : Math.min(r, i - 1);
			let a;
			a = n < r ? n + 1 + (i - r) : n - r + 1;
			for (let r = 0; r < a; ++r) {
				let a = (n - r + i) % i;
				if (e[a] === t) return a;
			}
			return -1;
		}
		e.lastIndexOf = n;
		function r(e, t, n = 0, r = -1) {
			let i = e.length;
			if (i === 0) return -1;
			n = n < 0 ? Math.max(0, n + i) : Math.min(n, i - 1), r = r < 0 ? Math.max(0, r + i) : Math.min(r, i - 1);
			let a;
			a = r < n ? r + 1 + (i - n) : r - n + 1;
			for (let r = 0; r < a; ++r) {
				let a = (n + r) % i;
				if (t(e[a], a)) return a;
			}
			return -1;
		}
		e.findFirstIndex = r;
		function i(e, t, n = -1, r = 0) {
			let i = e.length;
			if (i === 0) return -1;
			n = n < 0 ? Math.max(0, n + i) : Math.min(n, i - 1), r = r < 0 ? Math.max(0, r + i) : Math.min(r, i - 1);
			let a;
			a = n < r ? n + 1 + (i - r) : n - r + 1;
			for (let r = 0; r < a; ++r) {
				let a = (n - r + i) % i;
				if (t(e[a], a)) return a;
			}
			return -1;
		}
		e.findLastIndex = i, e.findFirstValue = function(e, t, n = 0, i = -1) {
			let a = r(e, t, n, i);
			return a === -1 ? void 0 : e[a];
		}, e.findLastValue = function(e, t, n = -1, r = 0) {
			let a = i(e, t, n, r);
			return a === -1 ? void 0 : e[a];
		}, e.lowerBound = function(e, t, n, r = 0, i = -1) {
			let a = e.length;
			if (a === 0) return 0;
			r = r < 0 ? Math.max(0, r + a) : Math.min(r, a - 1), i = i < 0 ? Math.max(0, i + a) : Math.min(i, a - 1);
			let o = r, s = i - r + 1;
			for (; s > 0;) {
				let r = s >> 1, i = o + r;
				n(e[i], t) < 0 ? (o = i + 1, s -= r + 1) : s = r;
			}
			return o;
		}, e.upperBound = function(e, t, n, r = 0, i = -1) {
			let a = e.length;
			if (a === 0) return 0;
			r = r < 0 ? Math.max(0, r + a) : Math.min(r, a - 1), i = i < 0 ? Math.max(0, i + a) : Math.min(i, a - 1);
			let o = r, s = i - r + 1;
			for (; s > 0;) {
				let r = s >> 1, i = o + r;
				n(e[i], t) > 0 ? s = r : (o = i + 1, s -= r + 1);
			}
			return o;
		}, e.shallowEqual = function(e, t, n) {
			if (e === t) return !0;
			if (e.length !== t.length) return !1;
			for (let r = 0, i = e.length; r < i; ++r) if (n ? !n(e[r], t[r]) : e[r] !== t[r]) return !1;
			return !0;
		}, e.slice = function(e, t = {}) {
			let { start: n, stop: r, step: i } = t;
			if (i === void 0 && (i = 1), i === 0) throw Error("Slice `step` cannot be zero.");
			let a = e.length;
			n === void 0 ? n = i < 0 ? a - 1 : 0 : n < 0 ? n = Math.max(n + a, i < 0 ? -1 : 0) : n >= a && (n = i < 0 ? a - 1 : a), r === void 0 ? r = i < 0 ? -1 : a : r < 0 ? r = Math.max(r + a, i < 0 ? -1 : 0) : r >= a && (r = i < 0 ? a - 1 : a);
			let o;
			o = i < 0 && r >= n || i > 0 && n >= r ? 0 : Math.floor(i < 0 ? (r - n + 1) / i + 1 : (r - n - 1) / i + 1);
			let s = [];
			for (let t = 0; t < o; ++t) s[t] = e[n + t * i];
			return s;
		}, e.move = function(e, t, n) {
			let r = e.length;
			if (r <= 1 || (t = t < 0 ? Math.max(0, t + r) : Math.min(t, r - 1), n = n < 0 ? Math.max(0, n + r) : Math.min(n, r - 1), t === n)) return;
			let i = e[t], a = t < n ? 1 : -1;
			for (let r = t; r !== n; r += a) e[r] = e[r + a];
			e[n] = i;
		};
		function a(e, t = 0, n = -1) {
			let r = e.length;
			if (!(r <= 1)) for (t = t < 0 ? Math.max(0, t + r) : Math.min(t, r - 1), n = n < 0 ? Math.max(0, n + r) : Math.min(n, r - 1); t < n;) {
				let r = e[t], i = e[n];
				e[t++] = i, e[n--] = r;
			}
		}
		e.reverse = a, e.rotate = function(e, t, n = 0, r = -1) {
			let i = e.length;
			if (i <= 1 || (n = n < 0 ? Math.max(0, n + i) : Math.min(n, i - 1), r = r < 0 ? Math.max(0, r + i) : Math.min(r, i - 1), n >= r)) return;
			let o = r - n + 1;
			if (t > 0 ? t %= o : t < 0 && (t = (t % o + o) % o), t === 0) return;
			let s = n + t;
			a(e, n, s - 1), a(e, s, r), a(e, n, r);
		}, e.fill = function(e, t, n = 0, r = -1) {
			let i = e.length;
			if (i === 0) return;
			n = n < 0 ? Math.max(0, n + i) : Math.min(n, i - 1), r = r < 0 ? Math.max(0, r + i) : Math.min(r, i - 1);
			let a;
			a = r < n ? r + 1 + (i - n) : r - n + 1;
			for (let r = 0; r < a; ++r) e[(n + r) % i] = t;
		}, e.insert = function(e, t, n) {
			let r = e.length;
			t = t < 0 ? Math.max(0, t + r) : Math.min(t, r);
			for (let n = r; n > t; --n) e[n] = e[n - 1];
			e[t] = n;
		};
		function o(e, t) {
			let n = e.length;
			if (t < 0 && (t += n), t < 0 || t >= n) return;
			let r = e[t];
			for (let r = t + 1; r < n; ++r) e[r - 1] = e[r];
			return e.length = n - 1, r;
		}
		e.removeAt = o, e.removeFirstOf = function(e, n, r = 0, i = -1) {
			let a = t(e, n, r, i);
			return a !== -1 && o(e, a), a;
		}, e.removeLastOf = function(e, t, r = -1, i = 0) {
			let a = n(e, t, r, i);
			return a !== -1 && o(e, a), a;
		}, e.removeAllOf = function(e, t, n = 0, r = -1) {
			let i = e.length;
			if (i === 0) return 0;
			n = n < 0 ? Math.max(0, n + i) : Math.min(n, i - 1), r = r < 0 ? Math.max(0, r + i) : Math.min(r, i - 1);
			let a = 0;
			for (let o = 0; o < i; ++o) n <= r && o >= n && o <= r && e[o] === t || r < n && (o <= r || o >= n) && e[o] === t ? a++ : a > 0 && (e[o - a] = e[o]);
			return a > 0 && (e.length = i - a), a;
		}, e.removeFirstWhere = function(e, t, n = 0, i = -1) {
			let a, s = r(e, t, n, i);
			return s !== -1 && (a = o(e, s)), {
				index: s,
				value: a
			};
		}, e.removeLastWhere = function(e, t, n = -1, r = 0) {
			let a, s = i(e, t, n, r);
			return s !== -1 && (a = o(e, s)), {
				index: s,
				value: a
			};
		}, e.removeAllWhere = function(e, t, n = 0, r = -1) {
			let i = e.length;
			if (i === 0) return 0;
			n = n < 0 ? Math.max(0, n + i) : Math.min(n, i - 1), r = r < 0 ? Math.max(0, r + i) : Math.min(r, i - 1);
			let a = 0;
			for (let o = 0; o < i; ++o) n <= r && o >= n && o <= r && t(e[o], o) || r < n && (o <= r || o >= n) && t(e[o], o) ? a++ : a > 0 && (e[o - a] = e[o]);
			return a > 0 && (e.length = i - a), a;
		};
	})(y ||= {}), (function(e) {
		e.rangeLength = function(e, t, n) {
			return n === 0 ? 1e400 : e > t && n > 0 || e < t && n < 0 ? 0 : Math.ceil((t - e) / n);
		};
	})(he ||= {}), (function(e) {
		function t(e, t, n = 0) {
			let r = Array(t.length);
			for (let i = 0, a = n, o = t.length; i < o; ++i, ++a) {
				if (a = e.indexOf(t[i], a), a === -1) return null;
				r[i] = a;
			}
			return r;
		}
		e.findIndices = t, e.matchSumOfSquares = function(e, n, r = 0) {
			let i = t(e, n, r);
			if (!i) return null;
			let a = 0;
			for (let e = 0, t = i.length; e < t; ++e) {
				let t = i[e] - r;
				a += t * t;
			}
			return {
				score: a,
				indices: i
			};
		}, e.matchSumOfDeltas = function(e, n, r = 0) {
			let i = t(e, n, r);
			if (!i) return null;
			let a = 0, o = r - 1;
			for (let e = 0, t = i.length; e < t; ++e) {
				let t = i[e];
				a += t - o - 1, o = t;
			}
			return {
				score: a,
				indices: i
			};
		}, e.highlight = function(e, t, n) {
			let r = [], i = 0, a = 0, o = t.length;
			for (; i < o;) {
				let s = t[i], c = t[i];
				for (; ++i < o && t[i] === c + 1;) c++;
				a < s && r.push(e.slice(a, s)), s < c + 1 && r.push(n(e.slice(s, c + 1))), a = c + 1;
			}
			return a < e.length && r.push(e.slice(a)), r;
		}, e.cmp = function(e, t) {
			return e < t ? -1 : +(e > t);
		};
	})(ge ||= {});
})), ve = /* @__PURE__ */ a(((e, t, n) => {
	var r;
	(function(n, i) {
		typeof e == "object" && t !== void 0 ? i(e, (_e(), c(l))) : typeof r == "function" && r.amd ? r(["exports", "@lumino/algorithm"], i) : (n = typeof globalThis < "u" ? globalThis : n || self, i(n.lumino_coreutils = {}, n.lumino_algorithm));
	})(n, (function(e, t) {
		e.JSONExt = void 0, (function(e) {
			e.emptyObject = Object.freeze({}), e.emptyArray = Object.freeze([]);
			function t(e) {
				return e === null || typeof e == "boolean" || typeof e == "number" || typeof e == "string";
			}
			e.isPrimitive = t;
			function n(e) {
				return Array.isArray(e);
			}
			e.isArray = n, e.isObject = function(e) {
				return !t(e) && !n(e);
			};
			function r(e, r) {
				if (e === r) return !0;
				if (t(e) || t(r)) return !1;
				let i = n(e), s = n(r);
				return i === s ? i && s ? a(e, r) : o(e, r) : !1;
			}
			e.deepEqual = r;
			function i(e) {
				return t(e) ? e : n(e) ? s(e) : c(e);
			}
			e.deepCopy = i;
			function a(e, t) {
				if (e === t) return !0;
				if (e.length !== t.length) return !1;
				for (let n = 0, i = e.length; n < i; ++n) if (!r(e[n], t[n])) return !1;
				return !0;
			}
			function o(e, t) {
				if (e === t) return !0;
				for (let n in e) if (e[n] !== void 0 && !(n in t)) return !1;
				for (let n in t) if (t[n] !== void 0 && !(n in e)) return !1;
				for (let n in e) {
					let i = e[n], a = t[n];
					if ((i !== void 0 || a !== void 0) && (i === void 0 || a === void 0 || !r(i, a))) return !1;
				}
				return !0;
			}
			function s(e) {
				let t = Array(e.length);
				for (let n = 0, r = e.length; n < r; ++n) t[n] = i(e[n]);
				return t;
			}
			function c(e) {
				let t = {};
				for (let n in e) {
					let r = e[n];
					r !== void 0 && (t[n] = i(r));
				}
				return t;
			}
		})(e.JSONExt ||= {});
		class n {
			constructor() {
				this._types = [], this._values = [];
			}
			types() {
				return this._types.slice();
			}
			hasData(e) {
				return this._types.indexOf(e) !== -1;
			}
			getData(e) {
				let t = this._types.indexOf(e);
				return t === -1 ? void 0 : this._values[t];
			}
			setData(e, t) {
				this.clearData(e), this._types.push(e), this._values.push(t);
			}
			clearData(e) {
				let t = this._types.indexOf(e);
				t !== -1 && (this._types.splice(t, 1), this._values.splice(t, 1));
			}
			clear() {
				this._types.length = 0, this._values.length = 0;
			}
		}
		class r {
			constructor(e = {}) {
				this._application = null, this._validatePlugin = () => !0, this._plugins = /* @__PURE__ */ new Map(), this._services = /* @__PURE__ */ new Map(), e.validatePlugin && (console.info("Plugins may be rejected by the custom validation plugin method."), this._validatePlugin = e.validatePlugin);
			}
			get application() {
				return this._application;
			}
			set application(e) {
				if (this._application !== null) throw Error("PluginRegistry.application is already set. It cannot be overridden.");
				this._application = e;
			}
			get deferredPlugins() {
				return Array.from(this._plugins).filter(([e, t]) => t.autoStart === "defer").map(([e, t]) => e);
			}
			getPluginDescription(e) {
				return this._plugins.get(e)?.description ?? "";
			}
			hasPlugin(e) {
				return this._plugins.has(e);
			}
			isPluginActivated(e) {
				return this._plugins.get(e)?.activated ?? !1;
			}
			listPlugins() {
				return Array.from(this._plugins.keys());
			}
			registerPlugin(e) {
				if (this._plugins.has(e.id)) throw TypeError(`Plugin '${e.id}' is already registered.`);
				if (!this._validatePlugin(e)) throw Error(`Plugin '${e.id}' is not valid.`);
				let t = i.createPluginData(e);
				i.ensureNoCycle(t, this._plugins, this._services), t.provides && this._services.set(t.provides, t.id), this._plugins.set(t.id, t);
			}
			registerPlugins(e) {
				for (let t of e) this.registerPlugin(t);
			}
			deregisterPlugin(e, t) {
				let n = this._plugins.get(e);
				if (n) {
					if (n.activated && !t) throw Error(`Plugin '${e}' is still active.`);
					this._plugins.delete(e);
				}
			}
			async activatePlugin(e) {
				let t = this._plugins.get(e);
				if (!t) throw ReferenceError(`Plugin '${e}' is not registered.`);
				if (t.activated) return;
				if (t.promise) return t.promise;
				let n = t.requires.map((e) => this.resolveRequiredService(e)), r = t.optional.map((e) => this.resolveOptionalService(e));
				return t.promise = Promise.all([...n, ...r]).then((e) => t.activate.apply(void 0, [this.application, ...e])).then((e) => {
					t.service = e, t.activated = !0, t.promise = null;
				}).catch((e) => {
					throw t.promise = null, e;
				}), t.promise;
			}
			async activatePlugins(e, t = {}) {
				switch (e) {
					case "defer": {
						let e = this.deferredPlugins.filter((e) => this._plugins.get(e).autoStart).map((e) => this.activatePlugin(e));
						await Promise.all(e);
						break;
					}
					case "startUp": {
						let e = i.collectStartupPlugins(this._plugins, t).map(async (e) => {
							try {
								return await this.activatePlugin(e);
							} catch (t) {
								console.error(`Plugin '${e}' failed to activate.`, t);
							}
						});
						await Promise.all(e);
						break;
					}
				}
			}
			async deactivatePlugin(e) {
				let t = this._plugins.get(e);
				if (!t) throw ReferenceError(`Plugin '${e}' is not registered.`);
				if (!t.activated) return [];
				if (!t.deactivate) throw TypeError(`Plugin '${e}'#deactivate() method missing`);
				let n = i.findDependents(e, this._plugins, this._services), r = n.map((e) => this._plugins.get(e));
				for (let t of r) if (!t.deactivate) throw TypeError(`Plugin ${t.id}#deactivate() method missing (depends on ${e})`);
				for (let e of r) {
					let t = [...e.requires, ...e.optional].map((e) => {
						let t = this._services.get(e);
						return t ? this._plugins.get(t).service : null;
					});
					await e.deactivate(this.application, ...t), e.service = null, e.activated = !1;
				}
				return n.pop(), n;
			}
			async resolveRequiredService(e) {
				let t = this._services.get(e);
				if (!t) throw TypeError(`No provider for: ${e.name}.`);
				let n = this._plugins.get(t);
				return n.activated || await this.activatePlugin(t), n.service;
			}
			async resolveOptionalService(e) {
				let t = this._services.get(e);
				if (!t) return null;
				let n = this._plugins.get(t);
				if (!n.activated) try {
					await this.activatePlugin(t);
				} catch (e) {
					return console.error(e), null;
				}
				return n.service;
			}
		}
		var i;
		(function(e) {
			class n {
				constructor(e) {
					this._activated = !1, this._promise = null, this._service = null, this.id = e.id, this.description = e.description ?? "", this.activate = e.activate, this.deactivate = e.deactivate ?? null, this.provides = e.provides ?? null, this.autoStart = e.autoStart ?? !1, this.requires = e.requires ? e.requires.slice() : [], this.optional = e.optional ? e.optional.slice() : [];
				}
				get activated() {
					return this._activated;
				}
				set activated(e) {
					this._activated = e;
				}
				get service() {
					return this._service;
				}
				set service(e) {
					this._service = e;
				}
				get promise() {
					return this._promise;
				}
				set promise(e) {
					this._promise = e;
				}
			}
			e.createPluginData = function(e) {
				return new n(e);
			}, e.ensureNoCycle = function(e, t, n) {
				let r = [...e.requires, ...e.optional], i = (r) => {
					if (r === e.provides) return !0;
					let o = n.get(r);
					if (!o) return !1;
					let s = t.get(o), c = [...s.requires, ...s.optional];
					return c.length !== 0 && (a.push(o), c.some(i) ? !0 : (a.pop(), !1));
				};
				if (!e.provides || r.length === 0) return;
				let a = [e.id];
				if (r.some(i)) throw ReferenceError(`Cycle detected: ${a.join(" -> ")}.`);
			}, e.findDependents = function(e, n, r) {
				let i = [], a = (e) => {
					let t = n.get(e), a = [...t.requires, ...t.optional];
					i.push(...a.reduce((t, n) => {
						let i = r.get(n);
						return i && t.push([e, i]), t;
					}, []));
				};
				for (let e of n.keys()) a(e);
				let o = i.filter((t) => t[1] === e), s = 0;
				for (; o.length > s;) {
					let e = o.length, t = new Set(o.map((e) => e[0]));
					for (let e of t) i.filter((t) => t[1] === e).forEach((e) => {
						o.includes(e) || o.push(e);
					});
					s = e;
				}
				let c = t.topologicSort(o), l = c.findIndex((t) => t === e);
				return l === -1 ? [e] : c.slice(0, l + 1);
			}, e.collectStartupPlugins = function(e, t) {
				let n = /* @__PURE__ */ new Set();
				for (let t of e.keys()) e.get(t).autoStart === !0 && n.add(t);
				if (t.startPlugins) for (let e of t.startPlugins) n.add(e);
				if (t.ignorePlugins) for (let e of t.ignorePlugins) n.delete(e);
				return Array.from(n);
			};
		})(i ||= {});
		class a {
			constructor() {
				this.promise = new Promise((e, t) => {
					this._resolve = e, this._reject = t;
				});
			}
			resolve(e) {
				(0, this._resolve)(e);
			}
			reject(e) {
				(0, this._reject)(e);
			}
		}
		class o {
			constructor(e, t) {
				this.name = e, this.description = t ?? "", this._tokenStructuralPropertyT = null;
			}
		}
		function s(e) {
			let t = 0;
			for (let n = 0, r = e.length; n < r; ++n) n % 4 == 0 && (t = Math.random() * 0xffffffff >>> 0), e[n] = t & 255, t >>>= 8;
		}
		e.Random = void 0, (function(e) {
			e.getRandomValues = (() => {
				let e = typeof window < "u" && (window.crypto || window.msCrypto) || null;
				return e && typeof e.getRandomValues == "function" ? function(t) {
					return e.getRandomValues(t);
				} : s;
			})();
		})(e.Random ||= {});
		function c(e) {
			let t = /* @__PURE__ */ new Uint8Array(16), n = Array(256);
			for (let e = 0; e < 16; ++e) n[e] = "0" + e.toString(16);
			for (let e = 16; e < 256; ++e) n[e] = e.toString(16);
			return function() {
				return e(t), t[6] = 64 | t[6] & 15, t[8] = 128 | t[8] & 63, n[t[0]] + n[t[1]] + n[t[2]] + n[t[3]] + "-" + n[t[4]] + n[t[5]] + "-" + n[t[6]] + n[t[7]] + "-" + n[t[8]] + n[t[9]] + "-" + n[t[10]] + n[t[11]] + n[t[12]] + n[t[13]] + n[t[14]] + n[t[15]];
			};
		}
		e.UUID = void 0, (function(t) {
			t.uuid4 = c(e.Random.getRandomValues);
		})(e.UUID ||= {}), e.MimeData = n, e.PluginRegistry = r, e.PromiseDelegate = a, e.Token = o;
	}));
}));
// node_modules/@lumino/domutils/dist/index.es6.js
_e();
var b = ve(), ye;
(function(e) {
	e.copyText = function(e) {
		let t = document.body, n = (r) => {
			r.preventDefault(), r.stopPropagation(), r.clipboardData.setData("text", e), t.removeEventListener("copy", n, !0);
		};
		t.addEventListener("copy", n, !0), document.execCommand("copy");
	};
})(ye ||= {});
var x;
(function(e) {
	e.boxSizing = function(e) {
		let t = window.getComputedStyle(e), n = parseFloat(t.borderTopWidth) || 0, r = parseFloat(t.borderLeftWidth) || 0, i = parseFloat(t.borderRightWidth) || 0, a = parseFloat(t.borderBottomWidth) || 0, o = parseFloat(t.paddingTop) || 0, s = parseFloat(t.paddingLeft) || 0, c = parseFloat(t.paddingRight) || 0, l = parseFloat(t.paddingBottom) || 0;
		return {
			borderTop: n,
			borderLeft: r,
			borderRight: i,
			borderBottom: a,
			paddingTop: o,
			paddingLeft: s,
			paddingRight: c,
			paddingBottom: l,
			horizontalSum: r + s + c + i,
			verticalSum: n + o + l + a
		};
	}, e.sizeLimits = function(e) {
		let t = window.getComputedStyle(e), n = parseFloat(t.minWidth) || 0, r = parseFloat(t.minHeight) || 0, i = parseFloat(t.maxWidth) || 1e400, a = parseFloat(t.maxHeight) || 1e400;
		return i = Math.max(n, i), a = Math.max(r, a), {
			minWidth: n,
			minHeight: r,
			maxWidth: i,
			maxHeight: a
		};
	}, e.hitTest = function(e, t, n) {
		let r = e.getBoundingClientRect();
		return t >= r.left && t < r.right && n >= r.top && n < r.bottom;
	}, e.scrollIntoViewIfNeeded = function(e, t) {
		let n = e.getBoundingClientRect(), r = t.getBoundingClientRect();
		r.top <= n.top && r.bottom >= n.bottom || (r.top < n.top && r.height <= n.height || r.bottom > n.bottom && r.height >= n.height ? e.scrollTop -= n.top - r.top : (r.top < n.top && r.height > n.height || r.bottom > n.bottom && r.height < n.height) && (e.scrollTop -= n.bottom - r.bottom));
	};
})(x ||= {});
var be;
(function(e) {
	e.IS_MAC = !!navigator.platform.match(/Mac/i), e.IS_WIN = !!navigator.platform.match(/Win/i), e.IS_IE = /Trident/.test(navigator.userAgent), e.IS_EDGE = /Edge/.test(navigator.userAgent), e.accelKey = function(t) {
		return e.IS_MAC ? t.metaKey : t.ctrlKey;
	};
})(be ||= {});
var xe;
(function(e) {
	e.calculateSpecificity = function(e) {
		if (e in Se.specificityCache) return Se.specificityCache[e];
		let t = Se.calculateSingle(e);
		return Se.specificityCache[e] = t;
	}, e.isValid = function(e) {
		if (e in Se.validityCache) return Se.validityCache[e];
		let t = !0;
		try {
			Se.testElem.querySelector(e);
		} catch {
			t = !1;
		}
		return Se.validityCache[e] = t;
	}, e.matches = function(e, t) {
		return Se.protoMatchFunc.call(e, t);
	};
})(xe ||= {});
var Se;
(function(e) {
	e.specificityCache = Object.create(null), e.validityCache = Object.create(null), e.testElem = document.createElement("div"), e.protoMatchFunc = (() => {
		let e = Element.prototype;
		return e.matches || e.matchesSelector || e.mozMatchesSelector || e.msMatchesSelector || e.oMatchesSelector || e.webkitMatchesSelector || function(e) {
			let t = this, n = t.ownerDocument ? t.ownerDocument.querySelectorAll(e) : [];
			return Array.prototype.indexOf.call(n, t) !== -1;
		};
	})(), e.calculateSingle = function(e) {
		e = e.split(",", 1)[0];
		let l = 0, u = 0, d = 0;
		function f(t) {
			let n = e.match(t);
			return n !== null && (e = e.slice(n[0].length), !0);
		}
		for (e = e.replace(c, " $1 "); e.length > 0;) if (f(t)) l++;
		else if (f(n)) u++;
		else if (f(r)) u++;
		else if (f(a)) d++;
		else if (f(o)) u++;
		else if (f(i)) d++;
		else if (!f(s)) return 0;
		return l = Math.min(l, 255), u = Math.min(u, 255), d = Math.min(d, 255), l << 16 | u << 8 | d;
	};
	let t = /^#[^\s\+>~#\.\[:]+/, n = /^\.[^\s\+>~#\.\[:]+/, r = /^\[[^\]]+\]/, i = /^[^\s\+>~#\.\[:]+/, a = /^(::[^\s\+>~#\.\[:]+|:first-line|:first-letter|:before|:after)/, o = /^:[^\s\+>~#\.\[:]+/, s = /^[\s\+>~\*]+/, c = /:not\(([^\)]+)\)/g;
})(Se ||= {});
// node_modules/@lumino/collections/dist/index.es6.js
var S = class {
	constructor() {
		this._first = null, this._last = null, this._size = 0;
	}
	get isEmpty() {
		return this._size === 0;
	}
	get size() {
		return this._size;
	}
	get length() {
		return this._size;
	}
	get first() {
		return this._first ? this._first.value : void 0;
	}
	get last() {
		return this._last ? this._last.value : void 0;
	}
	get firstNode() {
		return this._first;
	}
	get lastNode() {
		return this._last;
	}
	*[Symbol.iterator]() {
		let e = this._first;
		for (; e;) yield e.value, e = e.next;
	}
	*retro() {
		let e = this._last;
		for (; e;) yield e.value, e = e.prev;
	}
	*nodes() {
		let e = this._first;
		for (; e;) yield e, e = e.next;
	}
	*retroNodes() {
		let e = this._last;
		for (; e;) yield e, e = e.prev;
	}
	assign(e) {
		this.clear();
		for (let t of e) this.addLast(t);
	}
	push(e) {
		this.addLast(e);
	}
	pop() {
		return this.removeLast();
	}
	shift(e) {
		this.addFirst(e);
	}
	unshift() {
		return this.removeFirst();
	}
	addFirst(e) {
		let t = new Ce.LinkedListNode(this, e);
		return this._first ? (t.next = this._first, this._first.prev = t, this._first = t) : (this._first = t, this._last = t), this._size++, t;
	}
	addLast(e) {
		let t = new Ce.LinkedListNode(this, e);
		return this._last ? (t.prev = this._last, this._last.next = t, this._last = t) : (this._first = t, this._last = t), this._size++, t;
	}
	insertBefore(e, t) {
		if (!t || t === this._first) return this.addFirst(e);
		if (!(t instanceof Ce.LinkedListNode) || t.list !== this) throw Error("Reference node is not owned by the list.");
		let n = new Ce.LinkedListNode(this, e), r = t, i = r.prev;
		return n.next = r, n.prev = i, r.prev = n, i.next = n, this._size++, n;
	}
	insertAfter(e, t) {
		if (!t || t === this._last) return this.addLast(e);
		if (!(t instanceof Ce.LinkedListNode) || t.list !== this) throw Error("Reference node is not owned by the list.");
		let n = new Ce.LinkedListNode(this, e), r = t, i = r.next;
		return n.next = i, n.prev = r, r.next = n, i.prev = n, this._size++, n;
	}
	removeFirst() {
		let e = this._first;
		if (e) return e === this._last ? (this._first = null, this._last = null) : (this._first = e.next, this._first.prev = null), e.list = null, e.next = null, e.prev = null, this._size--, e.value;
	}
	removeLast() {
		let e = this._last;
		if (e) return e === this._first ? (this._first = null, this._last = null) : (this._last = e.prev, this._last.next = null), e.list = null, e.next = null, e.prev = null, this._size--, e.value;
	}
	removeNode(e) {
		if (!(e instanceof Ce.LinkedListNode) || e.list !== this) throw Error("Node is not owned by the list.");
		let t = e;
		t === this._first && t === this._last ? (this._first = null, this._last = null) : t === this._first ? (this._first = t.next, this._first.prev = null) : t === this._last ? (this._last = t.prev, this._last.next = null) : (t.next.prev = t.prev, t.prev.next = t.next), t.list = null, t.next = null, t.prev = null, this._size--;
	}
	clear() {
		let e = this._first;
		for (; e;) {
			let t = e.next;
			e.list = null, e.prev = null, e.next = null, e = t;
		}
		this._first = null, this._last = null, this._size = 0;
	}
};
(function(e) {
	e.from = function(t) {
		let n = new e();
		return n.assign(t), n;
	};
})(S ||= {});
var Ce;
(function(e) {
	class t {
		constructor(e, t) {
			this.list = null, this.next = null, this.prev = null, this.list = e, this.value = t;
		}
	}
	e.LinkedListNode = t;
})(Ce ||= {});
// node_modules/@lumino/messaging/dist/index.es6.js
var we = class {
	constructor(e) {
		this.type = e;
	}
	get isConflatable() {
		return !1;
	}
	conflate(e) {
		return !1;
	}
}, Te = class extends we {
	get isConflatable() {
		return !0;
	}
	conflate(e) {
		return !0;
	}
}, C;
(function(e) {
	let t = null, n = ((e) => (t) => {
		let n = !1;
		return e.then(() => !n && t()), () => {
			n = !0;
		};
	})(Promise.resolve());
	function r(e, t) {
		let n = a.get(e);
		(!n || n.length === 0 || re(ue(n), (n) => !n || l(n, e, t))) && u(e, t);
	}
	e.sendMessage = r, e.postMessage = function(e, t) {
		t.isConflatable && ie(i, (n) => n.handler !== e || !n.msg || n.msg.type !== t.type || !n.msg.isConflatable ? !1 : n.msg.conflate(t)) || d(e, t);
	}, e.installMessageHook = function(e, t) {
		let n = a.get(e);
		n && n.indexOf(t) !== -1 || (n ? n.push(t) : a.set(e, [t]));
	}, e.removeMessageHook = function(e, t) {
		let n = a.get(e);
		if (!n) return;
		let r = n.indexOf(t);
		r !== -1 && (n[r] = null, p(n));
	}, e.clearData = function(e) {
		let t = a.get(e);
		t && t.length > 0 && (y.fill(t, null), p(t));
		for (let t of i) t.handler === e && (t.handler = null, t.msg = null);
	}, e.flush = function() {
		c || t === null || (t(), t = null, c = !0, f(), c = !1);
	}, e.getExceptionHandler = function() {
		return s;
	}, e.setExceptionHandler = function(e) {
		let t = s;
		return s = e, t;
	};
	let i = new S(), a = /* @__PURE__ */ new WeakMap(), o = /* @__PURE__ */ new Set(), s = (e) => {
		console.error(e);
	}, c = !1;
	function l(e, t, n) {
		let r = !0;
		try {
			r = typeof e == "function" ? e(t, n) : e.messageHook(t, n);
		} catch (e) {
			s(e);
		}
		return r;
	}
	function u(e, t) {
		try {
			e.processMessage(t);
		} catch (e) {
			s(e);
		}
	}
	function d(e, r) {
		i.addLast({
			handler: e,
			msg: r
		}), t === null && (t = n(f));
	}
	function f() {
		if (t = null, i.isEmpty) return;
		let e = {
			handler: null,
			msg: null
		};
		for (i.addLast(e);;) {
			let t = i.removeFirst();
			if (t === e) return;
			t.handler && t.msg && r(t.handler, t.msg);
		}
	}
	function p(e) {
		o.size === 0 && n(m), o.add(e);
	}
	function m() {
		o.forEach(h), o.clear();
	}
	function h(e) {
		y.removeAllWhere(e, g);
	}
	function g(e) {
		return e === null;
	}
})(C ||= {});
// node_modules/@lumino/properties/dist/index.es6.js
var Ee = class {
	constructor(e) {
		this._pid = De.nextPID(), this.name = e.name, this._create = e.create, this._coerce = e.coerce || null, this._compare = e.compare || null, this._changed = e.changed || null;
	}
	get(e) {
		let t, n = De.ensureMap(e);
		return t = this._pid in n ? n[this._pid] : n[this._pid] = this._createValue(e), t;
	}
	set(e, t) {
		let n, r = De.ensureMap(e);
		n = this._pid in r ? r[this._pid] : r[this._pid] = this._createValue(e);
		let i = this._coerceValue(e, t);
		this._maybeNotify(e, n, r[this._pid] = i);
	}
	coerce(e) {
		let t, n = De.ensureMap(e);
		t = this._pid in n ? n[this._pid] : n[this._pid] = this._createValue(e);
		let r = this._coerceValue(e, t);
		this._maybeNotify(e, t, n[this._pid] = r);
	}
	_createValue(e) {
		return (0, this._create)(e);
	}
	_coerceValue(e, t) {
		let n = this._coerce;
		return n ? n(e, t) : t;
	}
	_compareValue(e, t) {
		let n = this._compare;
		return n ? n(e, t) : e === t;
	}
	_maybeNotify(e, t, n) {
		let r = this._changed;
		r && !this._compareValue(t, n) && r(e, t, n);
	}
};
(function(e) {
	e.clearData = function(e) {
		De.ownerData.delete(e);
	};
})(Ee ||= {});
var De;
// node_modules/@lumino/signaling/dist/index.es6.js
(function(e) {
	e.ownerData = /* @__PURE__ */ new WeakMap(), e.nextPID = (() => {
		let e = 0;
		return () => `pid-${`${Math.random()}`.slice(2)}-${e++}`;
	})(), e.ensureMap = function(t) {
		let n = e.ownerData.get(t);
		return n || (n = Object.create(null), e.ownerData.set(t, n), n);
	};
})(De ||= {}), _e();
var w = class {
	constructor(e) {
		this.sender = e;
	}
	connect(e, t) {
		return Oe.connect(this, e, t);
	}
	disconnect(e, t) {
		return Oe.disconnect(this, e, t);
	}
	emit(e) {
		Oe.emit(this, e);
	}
};
(function(e) {
	e.disconnectBetween = function(e, t) {
		Oe.disconnectBetween(e, t);
	}, e.disconnectSender = function(e) {
		Oe.disconnectSender(e);
	}, e.disconnectReceiver = function(e) {
		Oe.disconnectReceiver(e);
	}, e.disconnectAll = function(e) {
		Oe.disconnectAll(e);
	}, e.clearData = function(e) {
		Oe.disconnectAll(e);
	}, e.getExceptionHandler = function() {
		return Oe.exceptionHandler;
	}, e.setExceptionHandler = function(e) {
		let t = Oe.exceptionHandler;
		return Oe.exceptionHandler = e, t;
	};
})(w ||= {});
var Oe;
(function(e) {
	e.exceptionHandler = (e) => {
		console.error(e);
	}, e.connect = function(e, t, n) {
		n ||= void 0;
		let a = r.get(e.sender);
		if (a || (a = [], r.set(e.sender, a)), s(a, e, t, n)) return !1;
		let o = n || t, c = i.get(o);
		c || (c = [], i.set(o, c));
		let l = {
			signal: e,
			slot: t,
			thisArg: n
		};
		return a.push(l), c.push(l), !0;
	}, e.disconnect = function(e, t, n) {
		n ||= void 0;
		let a = r.get(e.sender);
		if (!a || a.length === 0) return !1;
		let o = s(a, e, t, n);
		if (!o) return !1;
		let c = n || t, u = i.get(c);
		return o.signal = null, l(a), l(u), !0;
	}, e.disconnectBetween = function(e, t) {
		let n = r.get(e);
		if (!n || n.length === 0) return;
		let a = i.get(t);
		if (a && a.length !== 0) {
			for (let t of a) t.signal && t.signal.sender === e && (t.signal = null);
			l(n), l(a);
		}
	};
	function t(e) {
		let t = r.get(e);
		if (t && t.length !== 0) {
			for (let e of t) {
				if (!e.signal) continue;
				let t = e.thisArg || e.slot;
				e.signal = null, l(i.get(t));
			}
			l(t);
		}
	}
	e.disconnectSender = t;
	function n(e) {
		let t = i.get(e);
		if (t && t.length !== 0) {
			for (let e of t) {
				if (!e.signal) continue;
				let t = e.signal.sender;
				e.signal = null, l(r.get(t));
			}
			l(t);
		}
	}
	e.disconnectReceiver = n, e.disconnectAll = function(e) {
		t(e), n(e);
	}, e.emit = function(e, t) {
		let n = r.get(e.sender);
		if (n && n.length !== 0) for (let r = 0, i = n.length; r < i; ++r) {
			let i = n[r];
			i.signal === e && c(i, t);
		}
	};
	let r = /* @__PURE__ */ new WeakMap(), i = /* @__PURE__ */ new WeakMap(), a = /* @__PURE__ */ new Set(), o = typeof requestAnimationFrame == "function" ? requestAnimationFrame : setImmediate;
	function s(e, t, n, r) {
		return m(e, (e) => e.signal === t && e.slot === n && e.thisArg === r);
	}
	function c(t, n) {
		let { signal: r, slot: i, thisArg: a } = t;
		try {
			i.call(a, r.sender, n);
		} catch (t) {
			e.exceptionHandler(t);
		}
	}
	function l(e) {
		a.size === 0 && o(u), a.add(e);
	}
	function u() {
		a.forEach(d), a.clear();
	}
	function d(e) {
		y.removeAllWhere(e, f);
	}
	function f(e) {
		return e.signal === null;
	}
})(Oe ||= {});
// node_modules/@lumino/disposable/dist/index.es6.js
var ke = class {
	constructor(e) {
		this._fn = e;
	}
	get isDisposed() {
		return !this._fn;
	}
	dispose() {
		if (!this._fn) return;
		let e = this._fn;
		this._fn = null, e();
	}
}, T = class {
	constructor() {
		this._isDisposed = !1, this._items = /* @__PURE__ */ new Set();
	}
	get isDisposed() {
		return this._isDisposed;
	}
	dispose() {
		this._isDisposed || (this._isDisposed = !0, this._items.forEach((e) => {
			e.dispose();
		}), this._items.clear());
	}
	contains(e) {
		return this._items.has(e);
	}
	add(e) {
		this._items.add(e);
	}
	remove(e) {
		this._items.delete(e);
	}
	clear() {
		this._items.clear();
	}
};
(function(e) {
	e.from = function(t) {
		let n = new e();
		for (let e of t) n.add(e);
		return n;
	};
})(T ||= {});
var Ae = class extends T {
	constructor() {
		super(...arguments), this._disposed = new w(this);
	}
	get disposed() {
		return this._disposed;
	}
	dispose() {
		this.isDisposed || (super.dispose(), this._disposed.emit(void 0), w.clearData(this));
	}
};
(function(e) {
	e.from = function(t) {
		let n = new e();
		for (let e of t) n.add(e);
		return n;
	};
})(Ae ||= {});
// node_modules/@lumino/dragdrop/dist/index.es6.js
var E = class e {
	constructor(e) {
		this._onScrollFrame = () => {
			if (!this._scrollTarget) return;
			let { element: e, edge: t, distance: n } = this._scrollTarget, r = ((D.SCROLL_EDGE_SIZE - n) / D.SCROLL_EDGE_SIZE) ** 2, i = Math.max(1, Math.round(r * D.SCROLL_EDGE_SIZE));
			switch (t) {
				case "top":
					e.scrollTop -= i;
					break;
				case "left":
					e.scrollLeft -= i;
					break;
				case "right":
					e.scrollLeft += i;
					break;
				case "bottom": e.scrollTop += i;
			}
			requestAnimationFrame(this._onScrollFrame);
		}, this._disposed = !1, this._dropAction = "none", this._override = null, this._currentTarget = null, this._currentElement = null, this._promise = null, this._scrollTarget = null, this._resolve = null, this.document = e.document || document, this.mimeData = e.mimeData, this.dragImage = e.dragImage || null, this.proposedAction = e.proposedAction || "copy", this.supportedActions = e.supportedActions || "all", this.source = e.source || null;
	}
	dispose() {
		if (!this._disposed) {
			if (this._disposed = !0, this._currentTarget) {
				let e = new PointerEvent("pointerup", {
					bubbles: !0,
					cancelable: !0,
					clientX: -1,
					clientY: -1
				});
				D.dispatchDragLeave(this, this._currentTarget, null, e);
			}
			this._finalize("none");
		}
	}
	get isDisposed() {
		return this._disposed;
	}
	start(e, t) {
		if (this._disposed) return Promise.resolve("none");
		if (this._promise) return this._promise;
		this._addListeners(), this._attachDragImage(e, t), this._promise = new Promise((e) => {
			this._resolve = e;
		});
		let n = new PointerEvent("pointermove", {
			bubbles: !0,
			cancelable: !0,
			clientX: e,
			clientY: t
		});
		return document.dispatchEvent(n), this._promise;
	}
	handleEvent(e) {
		switch (e.type) {
			case "pointermove":
				this._evtPointerMove(e);
				break;
			case "pointerup":
				this._evtPointerUp(e);
				break;
			case "keydown":
				this._evtKeyDown(e);
				break;
			default: e.preventDefault(), e.stopPropagation();
		}
	}
	moveDragImage(e, t) {
		if (!this.dragImage) return;
		let n = this.dragImage.style;
		n.transform = `translate(${e}px, ${t}px)`;
	}
	_evtPointerMove(e) {
		e.preventDefault(), e.stopPropagation(), this._updateCurrentTarget(e), this._updateDragScroll(e), this.moveDragImage(e.clientX, e.clientY);
	}
	_evtPointerUp(e) {
		if (e.preventDefault(), e.stopPropagation(), e.button !== 0) return;
		if (this._updateCurrentTarget(e), !this._currentTarget) {
			this._finalize("none");
			return;
		}
		if (this._dropAction === "none") {
			D.dispatchDragLeave(this, this._currentTarget, null, e), this._finalize("none");
			return;
		}
		let t = D.dispatchDrop(this, this._currentTarget, e);
		this._finalize(t);
	}
	_evtKeyDown(e) {
		e.preventDefault(), e.stopPropagation(), e.keyCode === 27 && this.dispose();
	}
	_addListeners() {
		document.addEventListener("pointerdown", this, !0), document.addEventListener("pointermove", this, !0), document.addEventListener("pointerup", this, !0), document.addEventListener("pointerenter", this, !0), document.addEventListener("pointerleave", this, !0), document.addEventListener("pointerover", this, !0), document.addEventListener("pointerout", this, !0), document.addEventListener("keydown", this, !0), document.addEventListener("keyup", this, !0), document.addEventListener("keypress", this, !0), document.addEventListener("contextmenu", this, !0);
	}
	_removeListeners() {
		document.removeEventListener("pointerdown", this, !0), document.removeEventListener("pointermove", this, !0), document.removeEventListener("pointerup", this, !0), document.removeEventListener("pointerenter", this, !0), document.removeEventListener("pointerleave", this, !0), document.removeEventListener("pointerover", this, !0), document.removeEventListener("pointerout", this, !0), document.removeEventListener("keydown", this, !0), document.removeEventListener("keyup", this, !0), document.removeEventListener("keypress", this, !0), document.removeEventListener("contextmenu", this, !0);
	}
	_updateDragScroll(e) {
		let t = D.findScrollTarget(e);
		(this._scrollTarget || t) && (this._scrollTarget || setTimeout(this._onScrollFrame, 500), this._scrollTarget = t);
	}
	_updateCurrentTarget(e) {
		let t = this._currentTarget, n = this._currentTarget, r = this._currentElement, i = D.findElementBehindBackdrop(e, this.document);
		this._currentElement = i, i !== r && i !== n && D.dispatchDragExit(this, n, i, e), i !== r && i !== n && (n = D.dispatchDragEnter(this, i, n, e)), n !== t && (this._currentTarget = n, D.dispatchDragLeave(this, t, n, e));
		let a = D.dispatchDragOver(this, n, e);
		this._setDropAction(a);
	}
	_attachDragImage(e, t) {
		if (!this.dragImage) return;
		this.dragImage.classList.add("lm-mod-drag-image");
		let n = this.dragImage.style;
		n.pointerEvents = "none", n.position = "fixed", n.transform = `translate(${e}px, ${t}px)`, (this.document instanceof Document ? this.document.body : this.document.firstElementChild).appendChild(this.dragImage);
	}
	_detachDragImage() {
		if (!this.dragImage) return;
		let e = this.dragImage.parentNode;
		e && e.removeChild(this.dragImage);
	}
	_setDropAction(t) {
		if (t = D.validateAction(t, this.supportedActions), !(this._override && this._dropAction === t)) switch (t) {
			case "none":
				this._dropAction = t, this._override = e.overrideCursor("no-drop", this.document);
				break;
			case "copy":
				this._dropAction = t, this._override = e.overrideCursor("copy", this.document);
				break;
			case "link":
				this._dropAction = t, this._override = e.overrideCursor("alias", this.document);
				break;
			case "move": this._dropAction = t, this._override = e.overrideCursor("move", this.document);
		}
	}
	_finalize(e) {
		let t = this._resolve;
		this._removeListeners(), this._detachDragImage(), this._override &&= (this._override.dispose(), null), this.mimeData.clear(), this._disposed = !0, this._dropAction = "none", this._currentTarget = null, this._currentElement = null, this._scrollTarget = null, this._promise = null, this._resolve = null, t && t(e);
	}
};
(function(e) {
	class t extends DragEvent {
		constructor(e, t) {
			super(t.type, {
				bubbles: !0,
				cancelable: !0,
				altKey: e.altKey,
				button: e.button,
				clientX: e.clientX,
				clientY: e.clientY,
				ctrlKey: e.ctrlKey,
				detail: 0,
				metaKey: e.metaKey,
				relatedTarget: t.related,
				screenX: e.screenX,
				screenY: e.screenY,
				shiftKey: e.shiftKey,
				view: window
			});
			let { drag: n } = t;
			this.dropAction = "none", this.mimeData = n.mimeData, this.proposedAction = n.proposedAction, this.supportedActions = n.supportedActions, this.source = n.source;
		}
	}
	e.Event = t, e.overrideCursor = function(e, t = document) {
		return D.overrideCursor(e, t);
	};
})(E ||= {});
var D;
(function(e) {
	e.SCROLL_EDGE_SIZE = 20, e.validateAction = function(e, t) {
		return i[e] & a[t] ? e : "none";
	};
	function t(t, i = document) {
		if (t) {
			if (n && t == n.event) return n.element;
			e.cursorBackdrop.style.zIndex = "-1000";
			let r = i.elementFromPoint(t.clientX, t.clientY);
			return e.cursorBackdrop.style.zIndex = "", n = {
				event: t,
				element: r
			}, r;
		}
		{
			let t = e.cursorBackdrop.style.transform;
			if (r && t === r.transform) return r.element;
			let n = e.cursorBackdrop.getBoundingClientRect();
			e.cursorBackdrop.style.zIndex = "-1000";
			let a = i.elementFromPoint(n.left + n.width / 2, n.top + n.height / 2);
			return e.cursorBackdrop.style.zIndex = "", r = {
				transform: t,
				element: a
			}, a;
		}
	}
	e.findElementBehindBackdrop = t;
	let n = null, r = null;
	e.findScrollTarget = function(n) {
		let r = n.clientX, i = n.clientY, a = t(n);
		for (; a; a = a.parentElement) {
			if (!a.hasAttribute("data-lm-dragscroll")) continue;
			let t = 0, n = 0;
			a === document.body && (t = window.pageXOffset, n = window.pageYOffset);
			let o = a.getBoundingClientRect(), s = o.top + n, c = o.left + t, l = c + o.width, u = s + o.height;
			if (r < c || r >= l || i < s || i >= u) continue;
			let d = r - c + 1, f = i - s + 1, p = l - r, m = u - i, h = Math.min(d, f, p, m);
			if (h > e.SCROLL_EDGE_SIZE) continue;
			let g;
			switch (h) {
				case m:
					g = "bottom";
					break;
				case f:
					g = "top";
					break;
				case p:
					g = "right";
					break;
				case d:
					g = "left";
					break;
				default: throw "unreachable";
			}
			let _ = a.scrollWidth - a.clientWidth, v = a.scrollHeight - a.clientHeight, ee;
			switch (g) {
				case "top":
					ee = v > 0 && a.scrollTop > 0;
					break;
				case "left":
					ee = _ > 0 && a.scrollLeft > 0;
					break;
				case "right":
					ee = _ > 0 && a.scrollLeft < _;
					break;
				case "bottom":
					ee = v > 0 && a.scrollTop < v;
					break;
				default: throw "unreachable";
			}
			if (ee) return {
				element: a,
				edge: g,
				distance: h
			};
		}
		return null;
	}, e.dispatchDragEnter = function(e, t, n, r) {
		if (!t) return null;
		let i = new E.Event(r, {
			drag: e,
			related: n,
			type: "lm-dragenter"
		});
		if (!t.dispatchEvent(i)) return t;
		let a = e.document instanceof Document ? e.document.body : e.document.firstElementChild;
		return t === a ? n : (i = new E.Event(r, {
			drag: e,
			related: n,
			type: "lm-dragenter"
		}), a.dispatchEvent(i), a);
	}, e.dispatchDragExit = function(e, t, n, r) {
		if (!t) return;
		let i = new E.Event(r, {
			drag: e,
			related: n,
			type: "lm-dragexit"
		});
		t.dispatchEvent(i);
	}, e.dispatchDragLeave = function(e, t, n, r) {
		if (!t) return;
		let i = new E.Event(r, {
			drag: e,
			related: n,
			type: "lm-dragleave"
		});
		t.dispatchEvent(i);
	}, e.dispatchDragOver = function(e, t, n) {
		if (!t) return "none";
		let r = new E.Event(n, {
			drag: e,
			related: null,
			type: "lm-dragover"
		});
		return t.dispatchEvent(r) ? "none" : r.dropAction;
	}, e.dispatchDrop = function(e, t, n) {
		if (!t) return "none";
		let r = new E.Event(n, {
			drag: e,
			related: null,
			type: "lm-drop"
		});
		return t.dispatchEvent(r) ? "none" : r.dropAction;
	};
	let i = {
		none: 0,
		copy: 1,
		link: 2,
		move: 4
	}, a = {
		none: i.none,
		copy: i.copy,
		link: i.link,
		move: i.move,
		"copy-link": i.copy | i.link,
		"copy-move": i.copy | i.move,
		"link-move": i.link | i.move,
		all: i.copy | i.link | i.move
	};
	e.overrideCursor = function(t, n = document) {
		let r = ++d, i = n instanceof Document ? n.body : n.firstElementChild;
		return e.cursorBackdrop.isConnected || (e.cursorBackdrop.style.transform = "scale(0)", i.appendChild(e.cursorBackdrop), c(), document.addEventListener("pointermove", o, {
			capture: !0,
			passive: !0
		}), e.cursorBackdrop.addEventListener("scroll", s, {
			capture: !0,
			passive: !0
		})), e.cursorBackdrop.style.cursor = t, new ke(() => {
			r === d && e.cursorBackdrop.isConnected && (document.removeEventListener("pointermove", o, !0), e.cursorBackdrop.removeEventListener("scroll", s, !0), i.removeChild(e.cursorBackdrop));
		});
	};
	function o(t) {
		if (e.cursorBackdrop) {
			e.cursorBackdrop.style.transform = `translate(${t.clientX}px, ${t.clientY}px)`;
			try {
				e.cursorBackdrop.hasPointerCapture(t.pointerId) || e.cursorBackdrop.setPointerCapture(t.pointerId);
			} catch {}
		}
	}
	function s(n) {
		if (!e.cursorBackdrop) return;
		let r = t();
		if (!r) return;
		let i = r.closest("[data-lm-dragscroll]");
		i && (i.scrollTop += e.cursorBackdrop.scrollTop - l, i.scrollLeft += e.cursorBackdrop.scrollLeft - l, c());
	}
	function c() {
		e.cursorBackdrop.scrollTop = l, e.cursorBackdrop.scrollLeft = l;
	}
	let l = 500;
	function u() {
		let e = document.createElement("div");
		return e.classList.add("lm-cursor-backdrop"), e;
	}
	let d = 0;
	e.cursorBackdrop = u();
})(D ||= {});
// node_modules/@lumino/keyboard/dist/index.es6.js
function je() {
	return Pe.keyboardLayout;
}
var Me = class e {
	constructor(t, n, r = []) {
		this.name = t, this._codes = n, this._keys = e.extractKeys(n), this._modifierKeys = e.convertToKeySet(r);
	}
	keys() {
		return Object.keys(this._keys);
	}
	isValidKey(e) {
		return e in this._keys;
	}
	isModifierKey(e) {
		return e in this._modifierKeys;
	}
	keyForKeydownEvent(e) {
		return this._codes[e.keyCode] || "";
	}
};
(function(e) {
	e.extractKeys = function(e) {
		let t = Object.create(null);
		for (let n in e) t[e[n]] = !0;
		return t;
	}, e.convertToKeySet = function(e) {
		let t = Object(null);
		for (let n = 0, r = e.length; n < r; ++n) t[e[n]] = !0;
		return t;
	};
})(Me ||= {});
var Ne = new Me("en-us", {
	8: "Backspace",
	9: "Tab",
	13: "Enter",
	16: "Shift",
	17: "Ctrl",
	18: "Alt",
	19: "Pause",
	27: "Escape",
	32: "Space",
	33: "PageUp",
	34: "PageDown",
	35: "End",
	36: "Home",
	37: "ArrowLeft",
	38: "ArrowUp",
	39: "ArrowRight",
	40: "ArrowDown",
	45: "Insert",
	46: "Delete",
	48: "0",
	49: "1",
	50: "2",
	51: "3",
	52: "4",
	53: "5",
	54: "6",
	55: "7",
	56: "8",
	57: "9",
	59: ";",
	61: "=",
	65: "A",
	66: "B",
	67: "C",
	68: "D",
	69: "E",
	70: "F",
	71: "G",
	72: "H",
	73: "I",
	74: "J",
	75: "K",
	76: "L",
	77: "M",
	78: "N",
	79: "O",
	80: "P",
	81: "Q",
	82: "R",
	83: "S",
	84: "T",
	85: "U",
	86: "V",
	87: "W",
	88: "X",
	89: "Y",
	90: "Z",
	91: "Meta",
	93: "ContextMenu",
	96: "0",
	97: "1",
	98: "2",
	99: "3",
	100: "4",
	101: "5",
	102: "6",
	103: "7",
	104: "8",
	105: "9",
	106: "*",
	107: "+",
	109: "-",
	110: ".",
	111: "/",
	112: "F1",
	113: "F2",
	114: "F3",
	115: "F4",
	116: "F5",
	117: "F6",
	118: "F7",
	119: "F8",
	120: "F9",
	121: "F10",
	122: "F11",
	123: "F12",
	173: "-",
	186: ";",
	187: "=",
	188: ",",
	189: "-",
	190: ".",
	191: "/",
	192: "`",
	219: "[",
	220: "\\",
	221: "]",
	222: "'",
	224: "Meta"
}, [
	"Shift",
	"Ctrl",
	"Alt",
	"Meta"
]), Pe;
// node_modules/@lumino/commands/dist/index.es6.js
(function(e) {
	e.keyboardLayout = Ne;
})(Pe ||= {}), _e();
var Fe = class e {
	constructor() {
		this._timerID = 0, this._timerModifierID = 0, this._replaying = !1, this._keystrokes = [], this._keydownEvents = [], this._keyBindings = [], this._exactKeyMatch = null, this._commands = /* @__PURE__ */ new Map(), this._commandChanged = new w(this), this._commandExecuted = new w(this), this._keyBindingChanged = new w(this), this._holdKeyBindingPromises = /* @__PURE__ */ new Map();
	}
	get commandChanged() {
		return this._commandChanged;
	}
	get commandExecuted() {
		return this._commandExecuted;
	}
	get keyBindingChanged() {
		return this._keyBindingChanged;
	}
	get keyBindings() {
		return this._keyBindings;
	}
	listCommands() {
		return Array.from(this._commands.keys());
	}
	hasCommand(e) {
		return this._commands.has(e);
	}
	addCommand(e, t) {
		if (this._commands.has(e)) throw Error(`Command '${e}' already registered.`);
		return this._commands.set(e, Ie.createCommand(t)), this._commandChanged.emit({
			id: e,
			type: "added"
		}), new ke(() => {
			this._commands.delete(e), this._commandChanged.emit({
				id: e,
				type: "removed"
			});
		});
	}
	notifyCommandChanged(e) {
		if (e !== void 0 && !this._commands.has(e)) throw Error(`Command '${e}' is not registered.`);
		this._commandChanged.emit({
			id: e,
			type: e ? "changed" : "many-changed"
		});
	}
	describedBy(e, t = b.JSONExt.emptyObject) {
		let n = this._commands.get(e);
		return Promise.resolve(n?.describedBy.call(void 0, t) ?? { args: null });
	}
	label(e, t = b.JSONExt.emptyObject) {
		return this._commands.get(e)?.label.call(void 0, t) ?? "";
	}
	mnemonic(e, t = b.JSONExt.emptyObject) {
		let n = this._commands.get(e);
		return n ? n.mnemonic.call(void 0, t) : -1;
	}
	icon(e, t = b.JSONExt.emptyObject) {
		return this._commands.get(e)?.icon.call(void 0, t);
	}
	iconClass(e, t = b.JSONExt.emptyObject) {
		let n = this._commands.get(e);
		return n ? n.iconClass.call(void 0, t) : "";
	}
	iconLabel(e, t = b.JSONExt.emptyObject) {
		let n = this._commands.get(e);
		return n ? n.iconLabel.call(void 0, t) : "";
	}
	caption(e, t = b.JSONExt.emptyObject) {
		let n = this._commands.get(e);
		return n ? n.caption.call(void 0, t) : "";
	}
	usage(e, t = b.JSONExt.emptyObject) {
		let n = this._commands.get(e);
		return n ? n.usage.call(void 0, t) : "";
	}
	className(e, t = b.JSONExt.emptyObject) {
		let n = this._commands.get(e);
		return n ? n.className.call(void 0, t) : "";
	}
	dataset(e, t = b.JSONExt.emptyObject) {
		let n = this._commands.get(e);
		return n ? n.dataset.call(void 0, t) : {};
	}
	isEnabled(e, t = b.JSONExt.emptyObject) {
		let n = this._commands.get(e);
		return n ? n.isEnabled.call(void 0, t) : !1;
	}
	isToggled(e, t = b.JSONExt.emptyObject) {
		let n = this._commands.get(e);
		return n ? n.isToggled.call(void 0, t) : !1;
	}
	isToggleable(e, t = b.JSONExt.emptyObject) {
		let n = this._commands.get(e);
		return n ? n.isToggleable : !1;
	}
	isVisible(e, t = b.JSONExt.emptyObject) {
		let n = this._commands.get(e);
		return n ? n.isVisible.call(void 0, t) : !1;
	}
	execute(e, t = b.JSONExt.emptyObject) {
		let n = this._commands.get(e);
		if (!n) return Promise.reject(/* @__PURE__ */ Error(`Command '${e}' not registered.`));
		let r;
		try {
			r = n.execute.call(void 0, t);
		} catch (e) {
			r = Promise.reject(e);
		}
		let i = Promise.resolve(r);
		return this._commandExecuted.emit({
			id: e,
			args: t,
			result: i
		}), i;
	}
	addKeyBinding(e) {
		let t = Ie.createKeyBinding(e);
		return this._keyBindings.push(t), this._keyBindingChanged.emit({
			binding: t,
			type: "added"
		}), new ke(() => {
			y.removeFirstOf(this._keyBindings, t), this._keyBindingChanged.emit({
				binding: t,
				type: "removed"
			});
		});
	}
	processKeydownEvent(t) {
		if (t.defaultPrevented || this._replaying) return;
		let n = e.keystrokeForKeydownEvent(t);
		if (!n) {
			this._replayKeydownEvents(), this._clearPendingState();
			return;
		}
		if (e.isModifierKeyPressed(t)) {
			let { exact: e } = Ie.matchKeyBinding(this._keyBindings, [n], t);
			e ? (t.preventDefault(), t.stopPropagation(), this._startModifierTimer(e)) : this._clearModifierTimer();
			return;
		}
		this._keystrokes.push(n);
		let { exact: r, partial: i } = Ie.matchKeyBinding(this._keyBindings, this._keystrokes, t), a = i.length !== 0;
		!r && !a ? (this._replayKeydownEvents(), this._clearPendingState()) : ((r?.preventDefault || i.some((e) => e.preventDefault)) && (t.preventDefault(), t.stopPropagation()), this._keydownEvents.push(t), r && !a ? (this._executeKeyBinding(r), this._clearPendingState()) : (r && (this._exactKeyMatch = r), this._startTimer()));
	}
	holdKeyBindingExecution(e, t) {
		this._holdKeyBindingPromises.set(e, t);
	}
	processKeyupEvent(e) {
		this._clearModifierTimer();
	}
	_startModifierTimer(e) {
		this._clearModifierTimer(), this._timerModifierID = window.setTimeout(() => {
			this._executeKeyBinding(e);
		}, Ie.modifierkeyTimeOut);
	}
	_clearModifierTimer() {
		this._timerModifierID !== 0 && (clearTimeout(this._timerModifierID), this._timerModifierID = 0);
	}
	_startTimer() {
		this._clearTimer(), this._timerID = window.setTimeout(() => {
			this._onPendingTimeout();
		}, Ie.CHORD_TIMEOUT);
	}
	_clearTimer() {
		this._timerID !== 0 && (clearTimeout(this._timerID), this._timerID = 0);
	}
	_replayKeydownEvents() {
		this._keydownEvents.length !== 0 && (this._replaying = !0, this._keydownEvents.forEach(Ie.replayKeyEvent), this._replaying = !1);
	}
	async _executeKeyBinding(e) {
		if (this._holdKeyBindingPromises.size !== 0) {
			let e = [...this._keydownEvents], t = (await Promise.race([Promise.all(e.map(async (e) => this._holdKeyBindingPromises.get(e) ?? Promise.resolve(!0))), new Promise((e) => {
				setTimeout(() => e([!1]), Ie.KEYBINDING_HOLD_TIMEOUT);
			})])).every(Boolean);
			if (this._holdKeyBindingPromises.clear(), !t) return;
		}
		let { command: t, args: n } = e, r = {
			_luminoEvent: {
				type: "keybinding",
				keys: e.keys
			},
			...n
		};
		if (!this.hasCommand(t) || !this.isEnabled(t, r)) {
			let n = this.hasCommand(t) ? "enabled" : "registered", r = `Cannot execute key binding '${e.keys.join(", ")}':`, i = `command '${t}' is not ${n}.`;
			console.warn(`${r} ${i}`);
		} else await this.execute(t, r);
	}
	_clearPendingState() {
		this._clearTimer(), this._clearModifierTimer(), this._exactKeyMatch = null, this._keystrokes.length = 0, this._keydownEvents.length = 0;
	}
	_onPendingTimeout() {
		this._timerID = 0, this._exactKeyMatch ? this._executeKeyBinding(this._exactKeyMatch) : this._replayKeydownEvents(), this._clearPendingState();
	}
};
(function(e) {
	function t(e) {
		let t = "", n = !1, r = !1, i = !1, a = !1;
		for (let o of e.split(/\s+/)) o === "Accel" ? be.IS_MAC ? r = !0 : i = !0 : o === "Alt" ? n = !0 : o === "Cmd" ? r = !0 : o === "Ctrl" ? i = !0 : o === "Shift" ? a = !0 : o.length > 0 && (t = o);
		return {
			cmd: r,
			ctrl: i,
			alt: n,
			shift: a,
			key: t
		};
	}
	e.parseKeystroke = t;
	function n(e) {
		let n = "", r = t(e);
		return r.ctrl && (n += "Ctrl "), r.alt && (n += "Alt "), r.shift && (n += "Shift "), r.cmd && be.IS_MAC && (n += "Cmd "), r.key ? n + r.key : n.trim();
	}
	e.normalizeKeystroke = n, e.normalizeKeys = function(e) {
		let t;
		return t = be.IS_WIN ? e.winKeys || e.keys : be.IS_MAC ? e.macKeys || e.keys : e.linuxKeys || e.keys, t.map(n);
	}, e.formatKeystroke = function(e) {
		return typeof e == "string" ? n(e) : e.map(n).join(", ");
		function n(e) {
			let n = [], r = be.IS_MAC ? " " : "+", i = t(e);
			return i.ctrl && n.push("Ctrl"), i.alt && n.push("Alt"), i.shift && n.push("Shift"), be.IS_MAC && i.cmd && n.push("Cmd"), n.push(i.key), n.map(Ie.formatKey).join(r);
		}
	}, e.isModifierKeyPressed = function(e) {
		let t = je(), n = t.keyForKeydownEvent(e);
		return t.isModifierKey(n);
	}, e.keystrokeForKeydownEvent = function(e) {
		let t = je(), n = t.keyForKeydownEvent(e), r = [];
		return e.ctrlKey && r.push("Ctrl"), e.altKey && r.push("Alt"), e.shiftKey && r.push("Shift"), e.metaKey && be.IS_MAC && r.push("Cmd"), t.isModifierKey(n) || r.push(n), r.join(" ");
	};
})(Fe ||= {});
var Ie;
// node_modules/@lumino/virtualdom/dist/index.es6.js
(function(e) {
	e.CHORD_TIMEOUT = 1e3, e.KEYBINDING_HOLD_TIMEOUT = 1e3, e.modifierkeyTimeOut = 500, e.createCommand = function(e) {
		return {
			execute: e.execute,
			describedBy: l(typeof e.describedBy == "function" ? e.describedBy : {
				args: null,
				...e.describedBy
			}, () => ({ args: null })),
			label: l(e.label, r),
			mnemonic: l(e.mnemonic, i),
			icon: l(e.icon, c),
			iconClass: l(e.iconClass, r),
			iconLabel: l(e.iconLabel, r),
			caption: l(e.caption, r),
			usage: l(e.usage, r),
			className: l(e.className, r),
			dataset: l(e.dataset, s),
			isEnabled: e.isEnabled || a,
			isToggled: e.isToggled || o,
			isToggleable: e.isToggleable || !!e.isToggled,
			isVisible: e.isVisible || a
		};
	}, e.createKeyBinding = function(e) {
		return {
			keys: Fe.normalizeKeys(e),
			selector: u(e),
			command: e.command,
			args: e.args || b.JSONExt.emptyObject,
			preventDefault: e.preventDefault ?? !0
		};
	}, e.matchKeyBinding = function(e, t, n) {
		let r = null, i = [], a = 1e400, o = 0;
		for (let s = 0, c = e.length; s < c; ++s) {
			let c = e[s], l = d(c.keys, t);
			if (l === 0) continue;
			if (l === 2) {
				f(c.selector, n) !== -1 && i.push(c);
				continue;
			}
			let u = f(c.selector, n);
			if (u === -1 || u > a) continue;
			let p = xe.calculateSpecificity(c.selector);
			(!r || u < a || p >= o) && (r = c, a = u, o = p);
		}
		return {
			exact: r,
			partial: i
		};
	}, e.replayKeyEvent = function(e) {
		e.target.dispatchEvent(p(e));
	}, e.formatKey = function(e) {
		return be.IS_MAC ? t.hasOwnProperty(e) ? t[e] : e : n.hasOwnProperty(e) ? n[e] : e;
	};
	let t = {
		Backspace: "⌫",
		Tab: "⇥",
		Enter: "⏎",
		Shift: "⇧",
		Ctrl: "⌃",
		Alt: "⌥",
		Escape: "⎋",
		PageUp: "⇞",
		PageDown: "⇟",
		End: "↘",
		Home: "↖",
		ArrowLeft: "←",
		ArrowUp: "↑",
		ArrowRight: "→",
		ArrowDown: "↓",
		Delete: "⌦",
		Cmd: "⌘"
	}, n = {
		Escape: "Esc",
		PageUp: "Page Up",
		PageDown: "Page Down",
		ArrowLeft: "Left",
		ArrowUp: "Up",
		ArrowRight: "Right",
		ArrowDown: "Down",
		Delete: "Del"
	}, r = () => "", i = () => -1, a = () => !0, o = () => !1, s = () => ({}), c = () => void 0;
	function l(e, t) {
		return e === void 0 ? t : typeof e == "function" ? e : () => e;
	}
	function u(e) {
		if (e.selector.indexOf(",") !== -1) throw Error(`Selector cannot contain commas: ${e.selector}`);
		if (!xe.isValid(e.selector)) throw Error(`Invalid selector: ${e.selector}`);
		return e.selector;
	}
	function d(e, t) {
		if (e.length < t.length) return 0;
		for (let n = 0, r = t.length; n < r; ++n) if (e[n] !== t[n]) return 0;
		return e.length > t.length ? 2 : 1;
	}
	function f(e, t) {
		let n = t.target, r = t.currentTarget;
		for (let t = 0; n !== null; n = n.parentElement, ++t) {
			if (n.hasAttribute("data-lm-suppress-shortcuts")) return -1;
			if (xe.matches(n, e)) return t;
			if (n === r) return -1;
		}
		return -1;
	}
	function p(e) {
		let t = document.createEvent("Event"), n = e.bubbles || !0, r = e.cancelable || !0;
		return t.initEvent(e.type || "keydown", n, r), t.key = e.key || "", t.keyCode = e.keyCode || 0, t.which = e.keyCode || 0, t.ctrlKey = e.ctrlKey || !1, t.altKey = e.altKey || !1, t.shiftKey = e.shiftKey || !1, t.metaKey = e.metaKey || !1, t.view = e.view || window, t;
	}
})(Ie ||= {}), _e();
var Le = class {
	constructor(e) {
		this.type = "text", this.content = e;
	}
}, Re = class {
	constructor(e, t, n, r) {
		this.type = "element", this.tag = e, this.attrs = t, this.children = n, this.renderer = r;
	}
};
function O(e) {
	let t = {}, n, r = [];
	for (let e = 1, a = arguments.length; e < a; ++e) {
		let a = arguments[e];
		typeof a == "string" ? r.push(new Le(a)) : a instanceof Le || a instanceof Re ? r.push(a) : a instanceof Array ? i(r, a) : (e === 1 || e === 2) && a && typeof a == "object" && ("render" in a ? n = a : t = a);
	}
	return new Re(e, t, r, n);
	function i(e, t) {
		for (let n of t) typeof n == "string" ? e.push(new Le(n)) : (n instanceof Le || n instanceof Re) && e.push(n);
	}
}
(function(e) {
	e.a = e.bind(void 0, "a"), e.abbr = e.bind(void 0, "abbr"), e.address = e.bind(void 0, "address"), e.area = e.bind(void 0, "area"), e.article = e.bind(void 0, "article"), e.aside = e.bind(void 0, "aside"), e.audio = e.bind(void 0, "audio"), e.b = e.bind(void 0, "b"), e.bdi = e.bind(void 0, "bdi"), e.bdo = e.bind(void 0, "bdo"), e.blockquote = e.bind(void 0, "blockquote"), e.br = e.bind(void 0, "br"), e.button = e.bind(void 0, "button"), e.canvas = e.bind(void 0, "canvas"), e.caption = e.bind(void 0, "caption"), e.cite = e.bind(void 0, "cite"), e.code = e.bind(void 0, "code"), e.col = e.bind(void 0, "col"), e.colgroup = e.bind(void 0, "colgroup"), e.data = e.bind(void 0, "data"), e.datalist = e.bind(void 0, "datalist"), e.dd = e.bind(void 0, "dd"), e.del = e.bind(void 0, "del"), e.dfn = e.bind(void 0, "dfn"), e.div = e.bind(void 0, "div"), e.dl = e.bind(void 0, "dl"), e.dt = e.bind(void 0, "dt"), e.em = e.bind(void 0, "em"), e.embed = e.bind(void 0, "embed"), e.fieldset = e.bind(void 0, "fieldset"), e.figcaption = e.bind(void 0, "figcaption"), e.figure = e.bind(void 0, "figure"), e.footer = e.bind(void 0, "footer"), e.form = e.bind(void 0, "form"), e.h1 = e.bind(void 0, "h1"), e.h2 = e.bind(void 0, "h2"), e.h3 = e.bind(void 0, "h3"), e.h4 = e.bind(void 0, "h4"), e.h5 = e.bind(void 0, "h5"), e.h6 = e.bind(void 0, "h6"), e.header = e.bind(void 0, "header"), e.hr = e.bind(void 0, "hr"), e.i = e.bind(void 0, "i"), e.iframe = e.bind(void 0, "iframe"), e.img = e.bind(void 0, "img"), e.input = e.bind(void 0, "input"), e.ins = e.bind(void 0, "ins"), e.kbd = e.bind(void 0, "kbd"), e.label = e.bind(void 0, "label"), e.legend = e.bind(void 0, "legend"), e.li = e.bind(void 0, "li"), e.main = e.bind(void 0, "main"), e.map = e.bind(void 0, "map"), e.mark = e.bind(void 0, "mark"), e.meter = e.bind(void 0, "meter"), e.nav = e.bind(void 0, "nav"), e.noscript = e.bind(void 0, "noscript"), e.object = e.bind(void 0, "object"), e.ol = e.bind(void 0, "ol"), e.optgroup = e.bind(void 0, "optgroup"), e.option = e.bind(void 0, "option"), e.output = e.bind(void 0, "output"), e.p = e.bind(void 0, "p"), e.param = e.bind(void 0, "param"), e.pre = e.bind(void 0, "pre"), e.progress = e.bind(void 0, "progress"), e.q = e.bind(void 0, "q"), e.rp = e.bind(void 0, "rp"), e.rt = e.bind(void 0, "rt"), e.ruby = e.bind(void 0, "ruby"), e.s = e.bind(void 0, "s"), e.samp = e.bind(void 0, "samp"), e.section = e.bind(void 0, "section"), e.select = e.bind(void 0, "select"), e.small = e.bind(void 0, "small"), e.source = e.bind(void 0, "source"), e.span = e.bind(void 0, "span"), e.strong = e.bind(void 0, "strong"), e.sub = e.bind(void 0, "sub"), e.summary = e.bind(void 0, "summary"), e.sup = e.bind(void 0, "sup"), e.table = e.bind(void 0, "table"), e.tbody = e.bind(void 0, "tbody"), e.td = e.bind(void 0, "td"), e.textarea = e.bind(void 0, "textarea"), e.tfoot = e.bind(void 0, "tfoot"), e.th = e.bind(void 0, "th"), e.thead = e.bind(void 0, "thead"), e.time = e.bind(void 0, "time"), e.title = e.bind(void 0, "title"), e.tr = e.bind(void 0, "tr"), e.track = e.bind(void 0, "track"), e.u = e.bind(void 0, "u"), e.ul = e.bind(void 0, "ul"), e.var_ = e.bind(void 0, "var"), e.video = e.bind(void 0, "video"), e.wbr = e.bind(void 0, "wbr");
})(O ||= {});
var ze;
(function(e) {
	e.realize = function(e) {
		return Be.createDOMNode(e);
	}, e.render = function(e, t) {
		let n = Be.hostMap.get(t) || [], r = Be.asContentArray(e);
		Be.hostMap.set(t, r), Be.updateContent(t, n, r);
	};
})(ze ||= {});
var Be;
// node_modules/@lumino/widgets/dist/index.es6.js
(function(e) {
	e.hostMap = /* @__PURE__ */ new WeakMap(), e.asContentArray = function(e) {
		return e ? e instanceof Array ? e : [e] : [];
	};
	function t(e) {
		let n = arguments[1] || null, r = arguments[2] || null;
		if (n) n.insertBefore(t(e), r);
		else {
			if (e.type === "text") return document.createTextNode(e.content);
			if (n = document.createElement(e.tag), a(n, e.attrs), e.renderer) return e.renderer.render(n, {
				attrs: e.attrs,
				children: e.children
			}), n;
			for (let r = 0, i = e.children.length; r < i; ++r) t(e.children[r], n);
		}
		return n;
	}
	e.createDOMNode = t;
	function n(e, i, a) {
		if (i === a) return;
		let s = d(e, i), c = i.slice(), l = e.firstChild, u = a.length;
		for (let r = 0; r < u; ++r) {
			if (r >= c.length) {
				t(a[r], e);
				continue;
			}
			let i = c[r], u = a[r];
			if (i === u) {
				l = l.nextSibling;
				continue;
			}
			if (i.type === "text" && u.type === "text") {
				l.textContent !== u.content && (l.textContent = u.content), l = l.nextSibling;
				continue;
			}
			if (i.type === "text" || u.type === "text" || !i.renderer != !u.renderer) {
				y.insert(c, r, u), t(u, e, l);
				continue;
			}
			let d = u.attrs.key;
			if (d && d in s) {
				let t = s[d];
				t.vNode !== i && (y.move(c, c.indexOf(t.vNode, r + 1), r), e.insertBefore(t.element, l), i = t.vNode, l = t.element);
			}
			if (i === u) {
				l = l.nextSibling;
				continue;
			}
			let f = i.attrs.key;
			f && f !== d ? (y.insert(c, r, u), t(u, e, l)) : i.tag === u.tag ? (o(l, i.attrs, u.attrs), u.renderer ? u.renderer.render(l, {
				attrs: u.attrs,
				children: u.children
			}) : n(l, i.children, u.children), l = l.nextSibling) : (y.insert(c, r, u), t(u, e, l));
		}
		r(e, c, u, !0);
	}
	e.updateContent = n;
	function r(e, t, n, i) {
		for (let a = t.length - 1; a >= n; --a) {
			let n = t[a], o = i ? e.lastChild : e.childNodes[a];
			n.type === "text" || (n.renderer && n.renderer.unrender ? n.renderer.unrender(o, {
				attrs: n.attrs,
				children: n.children
			}) : r(o, n.children, 0, !1)), i && e.removeChild(o);
		}
	}
	let i = {
		key: !0,
		className: !0,
		htmlFor: !0,
		dataset: !0,
		style: !0
	};
	function a(e, t) {
		for (let n in t) n in i || (n.substr(0, 2) === "on" ? e[n] = t[n] : e.setAttribute(n, t[n]));
		t.className !== void 0 && e.setAttribute("class", t.className), t.htmlFor !== void 0 && e.setAttribute("for", t.htmlFor), t.dataset && s(e, t.dataset), t.style && l(e, t.style);
	}
	function o(e, t, n) {
		if (t === n) return;
		let r;
		for (r in t) r in i || r in n || (r.substr(0, 2) === "on" ? e[r] = null : e.removeAttribute(r));
		for (r in n) r in i || t[r] === n[r] || (r.substr(0, 2) === "on" ? e[r] = n[r] : e.setAttribute(r, n[r]));
		t.className !== n.className && (n.className === void 0 ? e.removeAttribute("class") : e.setAttribute("class", n.className)), t.htmlFor !== n.htmlFor && (n.htmlFor === void 0 ? e.removeAttribute("for") : e.setAttribute("for", n.htmlFor)), t.dataset !== n.dataset && c(e, t.dataset || {}, n.dataset || {}), t.style !== n.style && u(e, t.style || {}, n.style || {});
	}
	function s(e, t) {
		for (let n in t) e.setAttribute(`data-${n}`, t[n]);
	}
	function c(e, t, n) {
		for (let r in t) r in n || e.removeAttribute(`data-${r}`);
		for (let r in n) t[r] !== n[r] && e.setAttribute(`data-${r}`, n[r]);
	}
	function l(e, t) {
		let n = e.style, r;
		for (r in t) n[r] = t[r];
	}
	function u(e, t, n) {
		let r = e.style, i;
		for (i in t) i in n || (r[i] = "");
		for (i in n) t[i] !== n[i] && (r[i] = n[i]);
	}
	function d(e, t) {
		let n = e.firstChild, r = Object.create(null);
		for (let e of t) e.type === "element" && e.attrs.key && (r[e.attrs.key] = {
			vNode: e,
			element: n
		}), n = n.nextSibling;
		return r;
	}
})(Be ||= {}), _e();
var Ve = class {
	constructor() {
		this.sizeHint = 0, this.minSize = 0, this.maxSize = 1e400, this.stretch = 1, this.size = 0, this.done = !1;
	}
}, k;
(function(e) {
	e.calc = function(e, t) {
		let n = e.length;
		if (n === 0) return t;
		let r = 0, i = 0, a = 0, o = 0, s = 0;
		for (let t = 0; t < n; ++t) {
			let n = e[t], c = n.minSize, l = n.maxSize, u = n.sizeHint;
			n.done = !1, n.size = Math.max(c, Math.min(u, l)), a += n.size, r += c, i += l, n.stretch > 0 && (o += n.stretch, s++);
		}
		if (t === a) return 0;
		if (t <= r) {
			for (let t = 0; t < n; ++t) {
				let n = e[t];
				n.size = n.minSize;
			}
			return t - r;
		}
		if (t >= i) {
			for (let t = 0; t < n; ++t) {
				let n = e[t];
				n.size = n.maxSize;
			}
			return t - i;
		}
		let c = .01, l = n;
		if (t < a) {
			let r = a - t;
			for (; s > 0 && r > c;) {
				let t = r, i = o;
				for (let a = 0; a < n; ++a) {
					let n = e[a];
					if (n.done || n.stretch === 0) continue;
					let c = n.stretch * t / i;
					n.size - c <= n.minSize ? (r -= n.size - n.minSize, o -= n.stretch, n.size = n.minSize, n.done = !0, l--, s--) : (r -= c, n.size -= c);
				}
			}
			for (; l > 0 && r > c;) {
				let t = r / l;
				for (let i = 0; i < n; ++i) {
					let n = e[i];
					n.done || (n.size - t <= n.minSize ? (r -= n.size - n.minSize, n.size = n.minSize, n.done = !0, l--) : (r -= t, n.size -= t));
				}
			}
		} else {
			let r = t - a;
			for (; s > 0 && r > c;) {
				let t = r, i = o;
				for (let a = 0; a < n; ++a) {
					let n = e[a];
					if (n.done || n.stretch === 0) continue;
					let c = n.stretch * t / i;
					n.size + c >= n.maxSize ? (r -= n.maxSize - n.size, o -= n.stretch, n.size = n.maxSize, n.done = !0, l--, s--) : (r -= c, n.size += c);
				}
			}
			for (; l > 0 && r > c;) {
				let t = r / l;
				for (let i = 0; i < n; ++i) {
					let n = e[i];
					n.done || (n.size + t >= n.maxSize ? (r -= n.maxSize - n.size, n.size = n.maxSize, n.done = !0, l--) : (r -= t, n.size += t));
				}
			}
		}
		return 0;
	}, e.adjust = function(e, r, i) {
		e.length !== 0 && i !== 0 && (i > 0 ? t(e, r, i) : n(e, r, -i));
	};
	function t(e, t, n) {
		let r = 0;
		for (let n = 0; n <= t; ++n) {
			let t = e[n];
			r += t.maxSize - t.size;
		}
		let i = 0;
		for (let n = t + 1, r = e.length; n < r; ++n) {
			let t = e[n];
			i += t.size - t.minSize;
		}
		n = Math.min(n, r, i);
		let a = n;
		for (let n = t; n >= 0 && a > 0; --n) {
			let t = e[n], r = t.maxSize - t.size;
			r >= a ? (t.sizeHint = t.size + a, a = 0) : (t.sizeHint = t.size + r, a -= r);
		}
		let o = n;
		for (let n = t + 1, r = e.length; n < r && o > 0; ++n) {
			let t = e[n], r = t.size - t.minSize;
			r >= o ? (t.sizeHint = t.size - o, o = 0) : (t.sizeHint = t.size - r, o -= r);
		}
	}
	function n(e, t, n) {
		let r = 0;
		for (let n = t + 1, i = e.length; n < i; ++n) {
			let t = e[n];
			r += t.maxSize - t.size;
		}
		let i = 0;
		for (let n = 0; n <= t; ++n) {
			let t = e[n];
			i += t.size - t.minSize;
		}
		n = Math.min(n, r, i);
		let a = n;
		for (let n = t + 1, r = e.length; n < r && a > 0; ++n) {
			let t = e[n], r = t.maxSize - t.size;
			r >= a ? (t.sizeHint = t.size + a, a = 0) : (t.sizeHint = t.size + r, a -= r);
		}
		let o = n;
		for (let n = t; n >= 0 && o > 0; --n) {
			let t = e[n], r = t.size - t.minSize;
			r >= o ? (t.sizeHint = t.size - o, o = 0) : (t.sizeHint = t.size - r, o -= r);
		}
	}
})(k ||= {});
var He = class {
	constructor(e) {
		this._label = "", this._caption = "", this._mnemonic = -1, this._icon = void 0, this._iconClass = "", this._iconLabel = "", this._className = "", this._closable = !1, this._changed = new w(this), this._isDisposed = !1, this.owner = e.owner, e.label !== void 0 && (this._label = e.label), e.mnemonic !== void 0 && (this._mnemonic = e.mnemonic), e.icon !== void 0 && (this._icon = e.icon), e.iconClass !== void 0 && (this._iconClass = e.iconClass), e.iconLabel !== void 0 && (this._iconLabel = e.iconLabel), e.caption !== void 0 && (this._caption = e.caption), e.className !== void 0 && (this._className = e.className), e.closable !== void 0 && (this._closable = e.closable), this._dataset = e.dataset || {};
	}
	get changed() {
		return this._changed;
	}
	get label() {
		return this._label;
	}
	set label(e) {
		this._label !== e && (this._label = e, this._changed.emit(void 0));
	}
	get mnemonic() {
		return this._mnemonic;
	}
	set mnemonic(e) {
		this._mnemonic !== e && (this._mnemonic = e, this._changed.emit(void 0));
	}
	get icon() {
		return this._icon;
	}
	set icon(e) {
		this._icon !== e && (this._icon = e, this._changed.emit(void 0));
	}
	get iconClass() {
		return this._iconClass;
	}
	set iconClass(e) {
		this._iconClass !== e && (this._iconClass = e, this._changed.emit(void 0));
	}
	get iconLabel() {
		return this._iconLabel;
	}
	set iconLabel(e) {
		this._iconLabel !== e && (this._iconLabel = e, this._changed.emit(void 0));
	}
	get caption() {
		return this._caption;
	}
	set caption(e) {
		this._caption !== e && (this._caption = e, this._changed.emit(void 0));
	}
	get className() {
		return this._className;
	}
	set className(e) {
		this._className !== e && (this._className = e, this._changed.emit(void 0));
	}
	get closable() {
		return this._closable;
	}
	set closable(e) {
		this._closable !== e && (this._closable = e, this._changed.emit(void 0));
	}
	get dataset() {
		return this._dataset;
	}
	set dataset(e) {
		this._dataset !== e && (this._dataset = e, this._changed.emit(void 0));
	}
	get isDisposed() {
		return this._isDisposed;
	}
	dispose() {
		this.isDisposed || (this._isDisposed = !0, w.clearData(this));
	}
}, Ue;
(function(e) {
	e.clampDimension = function(e) {
		return Math.max(0, Math.floor(e));
	}, e.adoptNode = function(e, t) {
		let n = t.ownerDocument;
		n && e.ownerDocument !== n && n.adoptNode(e);
	}, e.isTouchEvent = function(e) {
		return "pointerType" in e && e.pointerType === "touch";
	}, e.moveBefore = function(e, t, n) {
		let r = e;
		r.moveBefore && e.isConnected ? r.moveBefore(t, n) : e.insertBefore(t, n);
	}, e.moveKeepsState = function(e) {
		let t = e;
		return !e.isConnected || typeof t.moveBefore == "function";
	};
})(Ue ||= {});
var A = Ue, j = class e {
	constructor(t = {}) {
		this._flags = 0, this._layout = null, this._parent = null, this._disposed = new w(this), this._hiddenMode = e.HiddenMode.Display, this.node = We.createNode(t), this.addClass("lm-Widget");
	}
	dispose() {
		this.isDisposed || (this.setFlag(e.Flag.IsDisposed), this._disposed.emit(void 0), this.parent ? this.parent = null : this.isAttached && e.detach(this), this._layout &&= (this._layout.dispose(), null), this.title.dispose(), w.clearData(this), C.clearData(this), Ee.clearData(this));
	}
	get disposed() {
		return this._disposed;
	}
	get isDisposed() {
		return this.testFlag(e.Flag.IsDisposed);
	}
	get isAttached() {
		return this.testFlag(e.Flag.IsAttached);
	}
	get isHidden() {
		return this.testFlag(e.Flag.IsHidden);
	}
	get isVisible() {
		let e = this;
		do {
			if (e.isHidden || !e.isAttached) return !1;
			e = e.parent;
		} while (e != null);
		return !0;
	}
	get title() {
		return We.titleProperty.get(this);
	}
	get id() {
		return this.node.id;
	}
	set id(e) {
		this.node.id = e;
	}
	get dataset() {
		return this.node.dataset;
	}
	get hiddenMode() {
		return this._hiddenMode;
	}
	set hiddenMode(t) {
		this._hiddenMode !== t && (this.isHidden && this._toggleHidden(!1), t == e.HiddenMode.Scale ? this.node.style.willChange = "transform" : this.node.style.willChange = "auto", this._hiddenMode = t, this.isHidden && this._toggleHidden(!0));
	}
	get parent() {
		return this._parent;
	}
	set parent(t) {
		if (this._parent !== t) {
			if (t && this.contains(t)) throw Error("Invalid parent widget.");
			if (this._parent && !this._parent.isDisposed) {
				let t = new e.ChildMessage("child-removed", this);
				C.sendMessage(this._parent, t);
			}
			if (this._parent = t, this._parent && !this._parent.isDisposed) {
				let t = new e.ChildMessage("child-added", this);
				C.sendMessage(this._parent, t);
			}
			this.isDisposed || C.sendMessage(this, e.Msg.ParentChanged);
		}
	}
	get layout() {
		return this._layout;
	}
	set layout(t) {
		if (this._layout !== t) {
			if (this.testFlag(e.Flag.DisallowLayout)) throw Error("Cannot set widget layout.");
			if (this._layout) throw Error("Cannot change widget layout.");
			if (t.parent) throw Error("Cannot change layout parent.");
			this._layout = t, t.parent = this;
		}
	}
	*children() {
		this._layout && (yield* this._layout);
	}
	contains(e) {
		for (let t = e; t; t = t._parent) if (t === this) return !0;
		return !1;
	}
	hasClass(e) {
		return this.node.classList.contains(e);
	}
	addClass(e) {
		this.node.classList.add(e);
	}
	removeClass(e) {
		this.node.classList.remove(e);
	}
	toggleClass(e, t) {
		return t === !0 ? (this.node.classList.add(e), !0) : t === !1 ? (this.node.classList.remove(e), !1) : this.node.classList.toggle(e);
	}
	update() {
		C.postMessage(this, e.Msg.UpdateRequest);
	}
	fit() {
		C.postMessage(this, e.Msg.FitRequest);
	}
	activate() {
		C.postMessage(this, e.Msg.ActivateRequest);
	}
	close() {
		C.sendMessage(this, e.Msg.CloseRequest);
	}
	show() {
		if (this.testFlag(e.Flag.IsHidden) && (this.isAttached && (!this.parent || this.parent.isVisible) && C.sendMessage(this, e.Msg.BeforeShow), this.clearFlag(e.Flag.IsHidden), this._toggleHidden(!1), this.isAttached && (!this.parent || this.parent.isVisible) && C.sendMessage(this, e.Msg.AfterShow), this.parent)) {
			let t = new e.ChildMessage("child-shown", this);
			C.sendMessage(this.parent, t);
		}
	}
	hide() {
		if (!this.testFlag(e.Flag.IsHidden) && (this.isAttached && (!this.parent || this.parent.isVisible) && C.sendMessage(this, e.Msg.BeforeHide), this.setFlag(e.Flag.IsHidden), this._toggleHidden(!0), this.isAttached && (!this.parent || this.parent.isVisible) && C.sendMessage(this, e.Msg.AfterHide), this.parent)) {
			let t = new e.ChildMessage("child-hidden", this);
			C.sendMessage(this.parent, t);
		}
	}
	setHidden(e) {
		e ? this.hide() : this.show();
	}
	testFlag(e) {
		return (this._flags & e) !== 0;
	}
	setFlag(e) {
		this._flags |= e;
	}
	clearFlag(e) {
		this._flags &= ~e;
	}
	processMessage(t) {
		switch (t.type) {
			case "resize":
				this.notifyLayout(t), this.onResize(t);
				break;
			case "update-request":
				this.notifyLayout(t), this.onUpdateRequest(t);
				break;
			case "fit-request":
				this.notifyLayout(t), this.onFitRequest(t);
				break;
			case "before-show":
				this.notifyLayout(t), this.onBeforeShow(t);
				break;
			case "after-show":
				this.setFlag(e.Flag.IsVisible), this.notifyLayout(t), this.onAfterShow(t);
				break;
			case "before-hide":
				this.notifyLayout(t), this.onBeforeHide(t);
				break;
			case "after-hide":
				this.clearFlag(e.Flag.IsVisible), this.notifyLayout(t), this.onAfterHide(t);
				break;
			case "before-attach":
				this.notifyLayout(t), this.onBeforeAttach(t);
				break;
			case "after-attach":
				this.isHidden || this.parent && !this.parent.isVisible || this.setFlag(e.Flag.IsVisible), this.setFlag(e.Flag.IsAttached), this.notifyLayout(t), this.onAfterAttach(t);
				break;
			case "before-detach":
				this.notifyLayout(t), this.onBeforeDetach(t);
				break;
			case "after-detach":
				this.clearFlag(e.Flag.IsVisible), this.clearFlag(e.Flag.IsAttached), this.notifyLayout(t), this.onAfterDetach(t);
				break;
			case "activate-request":
				this.notifyLayout(t), this.onActivateRequest(t);
				break;
			case "close-request":
				this.notifyLayout(t), this.onCloseRequest(t);
				break;
			case "child-added":
				this.notifyLayout(t), this.onChildAdded(t);
				break;
			case "child-removed":
				this.notifyLayout(t), this.onChildRemoved(t);
				break;
			default: this.notifyLayout(t);
		}
	}
	notifyLayout(e) {
		this._layout && this._layout.processParentMessage(e);
	}
	onCloseRequest(t) {
		this.parent ? this.parent = null : this.isAttached && e.detach(this);
	}
	onResize(e) {}
	onUpdateRequest(e) {}
	onFitRequest(e) {}
	onActivateRequest(e) {}
	onBeforeShow(e) {}
	onAfterShow(e) {}
	onBeforeHide(e) {}
	onAfterHide(e) {}
	onBeforeAttach(e) {}
	onAfterAttach(e) {}
	onBeforeDetach(e) {}
	onAfterDetach(e) {}
	onChildAdded(e) {}
	onChildRemoved(e) {}
	_toggleHidden(t) {
		if (t) switch (this._hiddenMode) {
			case e.HiddenMode.Display:
				this.addClass("lm-mod-hidden");
				break;
			case e.HiddenMode.Scale:
				this.node.style.transform = "scale(0)", this.node.setAttribute("aria-hidden", "true");
				break;
			case e.HiddenMode.ContentVisibility: this.node.style.contentVisibility = "hidden", this.node.style.zIndex = "-1", this.node.style.opacity = "0";
		}
		else switch (this._hiddenMode) {
			case e.HiddenMode.Display:
				this.removeClass("lm-mod-hidden");
				break;
			case e.HiddenMode.Scale:
				this.node.style.transform = "", this.node.removeAttribute("aria-hidden");
				break;
			case e.HiddenMode.ContentVisibility: this.node.style.contentVisibility = "", this.node.style.zIndex = "", this.node.style.opacity = "";
		}
	}
};
(function(e) {
	(function(e) {
		e[e.Display = 0] = "Display", e[e.Scale = 1] = "Scale", e[e.ContentVisibility = 2] = "ContentVisibility";
	})(e.HiddenMode ||= {}), (function(e) {
		e[e.IsDisposed = 1] = "IsDisposed", e[e.IsAttached = 2] = "IsAttached", e[e.IsHidden = 4] = "IsHidden", e[e.IsVisible = 8] = "IsVisible", e[e.DisallowLayout = 16] = "DisallowLayout";
	})(e.Flag ||= {}), (function(e) {
		e.BeforeShow = new we("before-show"), e.AfterShow = new we("after-show"), e.BeforeHide = new we("before-hide"), e.AfterHide = new we("after-hide"), e.BeforeAttach = new we("before-attach"), e.AfterAttach = new we("after-attach"), e.BeforeDetach = new we("before-detach"), e.AfterDetach = new we("after-detach"), e.ParentChanged = new we("parent-changed"), e.UpdateRequest = new Te("update-request"), e.FitRequest = new Te("fit-request"), e.ActivateRequest = new Te("activate-request"), e.CloseRequest = new Te("close-request");
	})(e.Msg ||= {});
	class t extends we {
		constructor(e, t) {
			super(e), this.child = t;
		}
	}
	e.ChildMessage = t;
	class n extends we {
		constructor(e, t) {
			super("resize"), this.width = e, this.height = t;
		}
	}
	e.ResizeMessage = n, (function(e) {
		e.UnknownSize = new e(-1, -1);
	})(n = e.ResizeMessage ||= {}), e.attach = function(t, n, r = null) {
		if (t.parent) throw Error("Cannot attach a child widget.");
		if (t.isAttached || t.node.isConnected) throw Error("Widget is already attached.");
		if (!n.isConnected) throw Error("Host is not attached.");
		Ue.adoptNode(t.node, n), C.sendMessage(t, e.Msg.BeforeAttach), n.insertBefore(t.node, r), C.sendMessage(t, e.Msg.AfterAttach);
	}, e.detach = function(t) {
		if (t.parent) throw Error("Cannot detach a child widget.");
		if (!t.isAttached || !t.node.isConnected) throw Error("Widget is not attached.");
		C.sendMessage(t, e.Msg.BeforeDetach), t.node.parentNode.removeChild(t.node), C.sendMessage(t, e.Msg.AfterDetach);
	};
})(j ||= {});
var We;
(function(e) {
	e.titleProperty = new Ee({
		name: "title",
		create: (e) => new He({ owner: e })
	}), e.createNode = function(e) {
		return e.node || document.createElement(e.tag || "div");
	};
})(We ||= {});
var Ge = class {
	constructor(e = {}) {
		this._disposed = !1, this._parent = null, this._fitPolicy = e.fitPolicy || "set-min-size";
	}
	dispose() {
		this._parent = null, this._disposed = !0, w.clearData(this), Ee.clearData(this);
	}
	get isDisposed() {
		return this._disposed;
	}
	get parent() {
		return this._parent;
	}
	set parent(e) {
		if (this._parent !== e) {
			if (this._parent) throw Error("Cannot change parent widget.");
			if (e.layout !== this) throw Error("Invalid parent widget.");
			this._parent = e, this.init();
		}
	}
	get fitPolicy() {
		return this._fitPolicy;
	}
	set fitPolicy(e) {
		if (this._fitPolicy !== e && (this._fitPolicy = e, this._parent)) {
			let e = this._parent.node.style;
			e.minWidth = "", e.minHeight = "", e.maxWidth = "", e.maxHeight = "", this._parent.fit();
		}
	}
	processParentMessage(e) {
		switch (e.type) {
			case "resize":
				this.onResize(e);
				break;
			case "update-request":
				this.onUpdateRequest(e);
				break;
			case "fit-request":
				this.onFitRequest(e);
				break;
			case "before-show":
				this.onBeforeShow(e);
				break;
			case "after-show":
				this.onAfterShow(e);
				break;
			case "before-hide":
				this.onBeforeHide(e);
				break;
			case "after-hide":
				this.onAfterHide(e);
				break;
			case "before-attach":
				this.onBeforeAttach(e);
				break;
			case "after-attach":
				this.onAfterAttach(e);
				break;
			case "before-detach":
				this.onBeforeDetach(e);
				break;
			case "after-detach":
				this.onAfterDetach(e);
				break;
			case "child-removed":
				this.onChildRemoved(e);
				break;
			case "child-shown":
				this.onChildShown(e);
				break;
			case "child-hidden": this.onChildHidden(e);
		}
	}
	init() {
		for (let e of this) e.parent = this.parent;
	}
	onResize(e) {
		for (let e of this) C.sendMessage(e, j.ResizeMessage.UnknownSize);
	}
	onUpdateRequest(e) {
		for (let e of this) C.sendMessage(e, j.ResizeMessage.UnknownSize);
	}
	onBeforeAttach(e) {
		for (let t of this) C.sendMessage(t, e);
	}
	onAfterAttach(e) {
		for (let t of this) C.sendMessage(t, e);
	}
	onBeforeDetach(e) {
		for (let t of this) C.sendMessage(t, e);
	}
	onAfterDetach(e) {
		for (let t of this) C.sendMessage(t, e);
	}
	onBeforeShow(e) {
		for (let t of this) t.isHidden || C.sendMessage(t, e);
	}
	onAfterShow(e) {
		for (let t of this) t.isHidden || C.sendMessage(t, e);
	}
	onBeforeHide(e) {
		for (let t of this) t.isHidden || C.sendMessage(t, e);
	}
	onAfterHide(e) {
		for (let t of this) t.isHidden || C.sendMessage(t, e);
	}
	onChildRemoved(e) {
		this.removeWidget(e.child);
	}
	onFitRequest(e) {}
	onChildShown(e) {}
	onChildHidden(e) {}
};
(function(e) {
	e.getHorizontalAlignment = function(e) {
		return qe.horizontalAlignmentProperty.get(e);
	}, e.setHorizontalAlignment = function(e, t) {
		qe.horizontalAlignmentProperty.set(e, t);
	}, e.getVerticalAlignment = function(e) {
		return qe.verticalAlignmentProperty.get(e);
	}, e.setVerticalAlignment = function(e, t) {
		qe.verticalAlignmentProperty.set(e, t);
	};
})(Ge ||= {});
var Ke = class {
	constructor(e) {
		this._top = NaN, this._left = NaN, this._width = NaN, this._height = NaN, this._minWidth = 0, this._minHeight = 0, this._maxWidth = 1e400, this._maxHeight = 1e400, this._disposed = !1, this.widget = e, this.widget.node.style.position = "absolute", this.widget.node.style.contain = "strict";
	}
	dispose() {
		if (this._disposed) return;
		this._disposed = !0;
		let e = this.widget.node.style;
		e.position = "", e.top = "", e.left = "", e.width = "", e.height = "", e.contain = "";
	}
	get minWidth() {
		return this._minWidth;
	}
	get minHeight() {
		return this._minHeight;
	}
	get maxWidth() {
		return this._maxWidth;
	}
	get maxHeight() {
		return this._maxHeight;
	}
	get isDisposed() {
		return this._disposed;
	}
	get isHidden() {
		return this.widget.isHidden;
	}
	get isVisible() {
		return this.widget.isVisible;
	}
	get isAttached() {
		return this.widget.isAttached;
	}
	fit() {
		let e = x.sizeLimits(this.widget.node);
		this._minWidth = e.minWidth, this._minHeight = e.minHeight, this._maxWidth = e.maxWidth, this._maxHeight = e.maxHeight;
	}
	update(e, t, n, r) {
		let i = Math.max(this._minWidth, Math.min(n, this._maxWidth)), a = Math.max(this._minHeight, Math.min(r, this._maxHeight));
		if (i < n) switch (Ge.getHorizontalAlignment(this.widget)) {
			case "left": break;
			case "center":
				e += (n - i) / 2;
				break;
			case "right":
				e += n - i;
				break;
			default: throw "unreachable";
		}
		if (a < r) switch (Ge.getVerticalAlignment(this.widget)) {
			case "top": break;
			case "center":
				t += (r - a) / 2;
				break;
			case "bottom":
				t += r - a;
				break;
			default: throw "unreachable";
		}
		let o = !1, s = this.widget.node.style;
		if (this._top !== t && (this._top = t, s.top = `${t}px`), this._left !== e && (this._left = e, s.left = `${e}px`), this._width !== i && (o = !0, this._width = i, s.width = `${i}px`), this._height !== a && (o = !0, this._height = a, s.height = `${a}px`), o) {
			let e = new j.ResizeMessage(i, a);
			C.sendMessage(this.widget, e);
		}
	}
}, qe;
(function(e) {
	e.horizontalAlignmentProperty = new Ee({
		name: "horizontalAlignment",
		create: () => "center",
		changed: t
	}), e.verticalAlignmentProperty = new Ee({
		name: "verticalAlignment",
		create: () => "top",
		changed: t
	});
	function t(e) {
		e.parent && e.parent.layout && e.parent.update();
	}
})(qe ||= {});
var Je = class extends Ge {
	constructor() {
		super(...arguments), this._widgets = [];
	}
	dispose() {
		for (; this._widgets.length > 0;) this._widgets.pop().dispose();
		super.dispose();
	}
	get widgets() {
		return this._widgets;
	}
	*[Symbol.iterator]() {
		yield* this._widgets;
	}
	addWidget(e) {
		this.insertWidget(this._widgets.length, e);
	}
	insertWidget(e, t) {
		t.parent = this.parent;
		let n = this._widgets.indexOf(t), r = Math.max(0, Math.min(e, this._widgets.length));
		n === -1 ? (y.insert(this._widgets, r, t), this.parent && this.attachWidget(r, t)) : (r === this._widgets.length && r--, n !== r && (y.move(this._widgets, n, r), this.parent && this.moveWidget(n, r, t)));
	}
	removeWidget(e) {
		this.removeWidgetAt(this._widgets.indexOf(e));
	}
	removeWidgetAt(e) {
		let t = y.removeAt(this._widgets, e);
		t && this.parent && this.detachWidget(e, t);
	}
	init() {
		super.init();
		let e = 0;
		for (let t of this) this.attachWidget(e++, t);
	}
	attachWidget(e, t) {
		let n = this.parent.node.children[e];
		this.parent.isAttached && C.sendMessage(t, j.Msg.BeforeAttach), this.parent.node.insertBefore(t.node, n), this.parent.isAttached && C.sendMessage(t, j.Msg.AfterAttach);
	}
	moveWidget(e, t, n) {
		this.parent.isAttached && C.sendMessage(n, j.Msg.BeforeDetach), this.parent.node.removeChild(n.node), this.parent.isAttached && C.sendMessage(n, j.Msg.AfterDetach);
		let r = this.parent.node.children[t];
		this.parent.isAttached && C.sendMessage(n, j.Msg.BeforeAttach), this.parent.node.insertBefore(n.node, r), this.parent.isAttached && C.sendMessage(n, j.Msg.AfterAttach);
	}
	detachWidget(e, t) {
		this.parent.isAttached && C.sendMessage(t, j.Msg.BeforeDetach), this.parent.node.removeChild(t.node), this.parent.isAttached && C.sendMessage(t, j.Msg.AfterDetach);
	}
}, Ye = class e extends Je {
	constructor(e) {
		super(), this.widgetOffset = 0, this._fixed = 0, this._spacing = 4, this._dirty = !1, this._hasNormedSizes = !1, this._sizers = [], this._items = [], this._handles = [], this._box = null, this._alignment = "start", this._orientation = "horizontal", this.renderer = e.renderer, e.orientation !== void 0 && (this._orientation = e.orientation), e.alignment !== void 0 && (this._alignment = e.alignment), e.spacing !== void 0 && (this._spacing = Ue.clampDimension(e.spacing));
	}
	dispose() {
		for (let e of this._items) e.dispose();
		this._box = null, this._items.length = 0, this._sizers.length = 0, this._handles.length = 0, super.dispose();
	}
	get orientation() {
		return this._orientation;
	}
	set orientation(e) {
		this._orientation !== e && (this._orientation = e, this.parent && (this.parent.dataset.orientation = e, this.parent.fit()));
	}
	get alignment() {
		return this._alignment;
	}
	set alignment(e) {
		this._alignment !== e && (this._alignment = e, this.parent && (this.parent.dataset.alignment = e, this.parent.update()));
	}
	get spacing() {
		return this._spacing;
	}
	set spacing(e) {
		e = Ue.clampDimension(e), this._spacing !== e && (this._spacing = e, this.parent && this.parent.fit());
	}
	get handles() {
		return this._handles;
	}
	absoluteSizes() {
		return this._sizers.map((e) => e.size);
	}
	relativeSizes() {
		return M.normalize(this._sizers.map((e) => e.size));
	}
	setRelativeSizes(e, t = !0) {
		let n = this._sizers.length, r = e.slice(0, n);
		for (; r.length < n;) r.push(0);
		let i = M.normalize(r);
		for (let e = 0; e < n; ++e) {
			let t = this._sizers[e];
			t.sizeHint = i[e], t.size = i[e];
		}
		this._hasNormedSizes = !0, t && this.parent && this.parent.update();
	}
	moveHandle(e, t) {
		this.adjustHandle(e, t) && this.parent && this.parent.update();
	}
	adjustHandle(e, t) {
		let n = this._handles[e];
		if (!n || n.classList.contains("lm-mod-hidden")) return !1;
		let r;
		if (r = this._orientation === "horizontal" ? t - n.offsetLeft : t - n.offsetTop, r === 0) return !1;
		for (let e of this._sizers) e.size > 0 && (e.sizeHint = e.size);
		return k.adjust(this._sizers, e, r), !0;
	}
	init() {
		this.parent.dataset.orientation = this.orientation, this.parent.dataset.alignment = this.alignment, super.init();
	}
	attachWidget(e, t) {
		let n = new Ke(t), r = M.createHandle(this.renderer), i = M.averageSize(this._sizers), a = M.createSizer(i);
		y.insert(this._items, e, n), y.insert(this._sizers, e, a), y.insert(this._handles, e, r), this.parent.isAttached && C.sendMessage(t, j.Msg.BeforeAttach), this.parent.node.insertBefore(t.node, this._sectionReference(e)), this.parent.node.insertBefore(r, t.node.nextSibling), this.parent.isAttached && C.sendMessage(t, j.Msg.AfterAttach), this.parent.fit();
	}
	moveWidget(e, t, n) {
		y.move(this._items, e, t), y.move(this._sizers, e, t), y.move(this._handles, e, t), Ue.moveKeepsState(this.parent.node) && (Ue.moveBefore(this.parent.node, n.node, this._sectionReference(t)), Ue.moveBefore(this.parent.node, this._handles[t], n.node.nextSibling)), this.parent.fit();
	}
	detachWidget(e, t) {
		let n = y.removeAt(this._items, e), r = y.removeAt(this._handles, e);
		y.removeAt(this._sizers, e), this.parent.isAttached && C.sendMessage(t, j.Msg.BeforeDetach), this.parent.node.removeChild(t.node), this.parent.node.removeChild(r), this.parent.isAttached && C.sendMessage(t, j.Msg.AfterDetach), n.dispose(), this.parent.fit();
	}
	onBeforeShow(e) {
		super.onBeforeShow(e), this.parent.update();
	}
	onBeforeAttach(e) {
		super.onBeforeAttach(e), this.parent.fit();
	}
	onChildShown(e) {
		this.parent.fit();
	}
	onChildHidden(e) {
		this.parent.fit();
	}
	onResize(e) {
		this.parent.isVisible && this._update(e.width, e.height);
	}
	onUpdateRequest(e) {
		this.parent.isVisible && this._update(-1, -1);
	}
	onFitRequest(e) {
		this.parent.isAttached && this._fit();
	}
	updateItemPosition(e, t, n, r, i, a, o) {
		let s = this._items[e];
		if (s.isHidden) return;
		let c = this._handles[e].style;
		t ? (n += this.widgetOffset, s.update(n, r, o, i), n += o, c.top = `${r}px`, c.left = `${n}px`, c.width = `${this._spacing}px`, c.height = `${i}px`) : (r += this.widgetOffset, s.update(n, r, a, o), r += o, c.top = `${r}px`, c.left = `${n}px`, c.width = `${a}px`, c.height = `${this._spacing}px`);
	}
	_fit() {
		let t = 0, n = -1;
		for (let e = 0, r = this._items.length; e < r; ++e) this._items[e].isHidden ? this._handles[e].classList.add("lm-mod-hidden") : (this._handles[e].classList.remove("lm-mod-hidden"), n = e, t++);
		n !== -1 && this._handles[n].classList.add("lm-mod-hidden"), this._fixed = this._spacing * Math.max(0, t - 1) + this.widgetOffset * this._items.length;
		let r = this._orientation === "horizontal", i = r ? this._fixed : 0, a = r ? 0 : this._fixed;
		for (let t = 0, n = this._items.length; t < n; ++t) {
			let n = this._items[t], o = this._sizers[t];
			o.size > 0 && (o.sizeHint = o.size), n.isHidden ? (o.minSize = 0, o.maxSize = 0) : (n.fit(), o.stretch = e.getStretch(n.widget), r ? (o.minSize = n.minWidth, o.maxSize = n.maxWidth, i += n.minWidth, a = Math.max(a, n.minHeight)) : (o.minSize = n.minHeight, o.maxSize = n.maxHeight, a += n.minHeight, i = Math.max(i, n.minWidth)));
		}
		let o = this._box = x.boxSizing(this.parent.node);
		i += o.horizontalSum, a += o.verticalSum;
		let s = this.parent.node.style;
		s.minWidth = `${i}px`, s.minHeight = `${a}px`, this._dirty = !0, this.parent.parent && C.sendMessage(this.parent.parent, j.Msg.FitRequest), this._dirty && C.sendMessage(this.parent, j.Msg.UpdateRequest);
	}
	_update(e, t) {
		this._dirty = !1;
		let n = 0;
		for (let e = 0, t = this._items.length; e < t; ++e) n += +!this._items[e].isHidden;
		if (n === 0 && this.widgetOffset === 0) return;
		e < 0 && (e = this.parent.node.offsetWidth), t < 0 && (t = this.parent.node.offsetHeight), this._box ||= x.boxSizing(this.parent.node);
		let r = this._box.paddingTop, i = this._box.paddingLeft, a = e - this._box.horizontalSum, o = t - this._box.verticalSum, s = 0, c = 0, l = this._orientation === "horizontal";
		if (n > 0) {
			let e;
			if (e = l ? Math.max(0, a - this._fixed) : Math.max(0, o - this._fixed), this._hasNormedSizes) {
				for (let t of this._sizers) t.sizeHint *= e;
				this._hasNormedSizes = !1;
			}
			let t = k.calc(this._sizers, e);
			if (t > 0) switch (this._alignment) {
				case "start": break;
				case "center":
					s = 0, c = t / 2;
					break;
				case "end":
					s = 0, c = t;
					break;
				case "justify":
					s = t / n, c = 0;
					break;
				default: throw "unreachable";
			}
		}
		for (let e = 0, t = this._items.length; e < t; ++e) {
			let t = this._items[e].isHidden ? 0 : this._sizers[e].size + s;
			this.updateItemPosition(e, l, l ? i + c : i, l ? r : r + c, o, a, t);
			let n = this.widgetOffset + (this._handles[e].classList.contains("lm-mod-hidden") ? 0 : this._spacing);
			l ? i += t + n : r += t + n;
		}
	}
	_sectionReference(e) {
		return e > 0 ? this._handles[e - 1].nextSibling : this.parent.node.firstChild;
	}
};
(function(e) {
	e.getStretch = function(e) {
		return M.stretchProperty.get(e);
	}, e.setStretch = function(e, t) {
		M.stretchProperty.set(e, t);
	};
})(Ye ||= {});
var M;
(function(e) {
	e.stretchProperty = new Ee({
		name: "stretch",
		create: () => 0,
		coerce: (e, t) => Math.max(0, Math.floor(t)),
		changed: t
	}), e.createSizer = function(e) {
		let t = new Ve();
		return t.sizeHint = Math.floor(e), t;
	}, e.createHandle = function(e) {
		let t = e.createHandle();
		return t.style.position = "absolute", t.style.contain = "style", t;
	}, e.averageSize = function(e) {
		return e.reduce((e, t) => e + t.size, 0) / e.length || 0;
	}, e.normalize = function(e) {
		let t = e.length;
		if (t === 0) return [];
		let n = e.reduce((e, t) => e + Math.abs(t), 0);
		return n === 0 ? e.map((e) => 1 / t) : e.map((e) => e / n);
	};
	function t(e) {
		e.parent && e.parent.layout instanceof Ye && e.parent.fit();
	}
})(M ||= {});
var Xe = class extends Ye {
	constructor(e) {
		super({
			...e,
			orientation: e.orientation || "vertical"
		}), this._titles = [], this.titleSpace = e.titleSpace || 22;
	}
	get titleSpace() {
		return this.widgetOffset;
	}
	set titleSpace(e) {
		e = A.clampDimension(e), this.widgetOffset !== e && (this.widgetOffset = e, this.parent && this.parent.fit());
	}
	get titles() {
		return this._titles;
	}
	dispose() {
		this.isDisposed || (this._titles.length = 0, super.dispose());
	}
	updateTitle(e, t) {
		let n = this._titles[e], r = n.classList.contains("lm-mod-expanded"), i = Ze.createTitle(this.renderer, t.title, r);
		this._titles[e] = i, this.parent.node.replaceChild(i, n);
	}
	insertWidget(e, t) {
		t.id ||= `id-${b.UUID.uuid4()}`, super.insertWidget(e, t);
	}
	attachWidget(e, t) {
		let n = Ze.createTitle(this.renderer, t.title, !t.isHidden);
		y.insert(this._titles, e, n), this.parent.node.appendChild(n), t.node.setAttribute("role", "region"), t.node.setAttribute("aria-labelledby", n.id), super.attachWidget(e, t), this.parent.node.insertBefore(n, t.node);
	}
	moveWidget(e, t, n) {
		y.move(this._titles, e, t), super.moveWidget(e, t, n), A.moveKeepsState(this.parent.node) && A.moveBefore(this.parent.node, this._titles[t], n.node);
	}
	detachWidget(e, t) {
		let n = y.removeAt(this._titles, e);
		this.parent.node.removeChild(n), super.detachWidget(e, t);
	}
	updateItemPosition(e, t, n, r, i, a, o) {
		let s = this._titles[e].style;
		s.top = `${r}px`, s.left = `${n}px`, s.height = `${this.widgetOffset}px`, s.width = t ? `${i}px` : `${a}px`, super.updateItemPosition(e, t, n, r, i, a, o);
	}
}, Ze;
(function(e) {
	e.createTitle = function(e, t, n = !0) {
		let r = e.createSectionTitle(t);
		return r.style.position = "absolute", r.style.contain = "strict", r.setAttribute("aria-label", `${t.label} Section`), r.setAttribute("aria-expanded", n ? "true" : "false"), r.setAttribute("aria-controls", t.owner.id), n && r.classList.add("lm-mod-expanded"), r;
	};
})(Ze ||= {});
var Qe = 8;
function $e(e) {
	return Math.max(e, Qe);
}
function et(e, t) {
	let n = t;
	for (; n && n.parentNode !== e;) n = n.parentElement;
	return n;
}
var tt = class {
	constructor() {
		this._className = "lm-mod-intersection", this._primary = null, this._secondary = null;
	}
	set(e, t = null) {
		(this._primary !== e || this._secondary !== t) && (this._applyClass(this._primary, this._secondary, !1), this._primary = e, this._secondary = t, this._applyClass(this._primary, this._secondary, !0));
	}
	_applyClass(e, t, n) {
		let r = n ? "add" : "remove";
		e && e.classList[r](this._className), t && t !== e && t.classList[r](this._className);
	}
}, nt = class extends j {
	constructor(e = {}) {
		super(), this.addClass("lm-Panel"), this.layout = rt.createLayout(e);
	}
	get widgets() {
		return this.layout.widgets;
	}
	addWidget(e) {
		this.layout.addWidget(e);
	}
	insertWidget(e, t) {
		this.layout.insertWidget(e, t);
	}
}, rt;
(function(e) {
	e.createLayout = function(e) {
		return e.layout || new Je();
	};
})(rt ||= {});
var it = class e extends nt {
	constructor(e = {}) {
		super({ layout: at.createLayout(e) }), this._applyDrag = () => {
			let e = this._pressData;
			if (!e) return;
			e.frameId = -1;
			let t = this.layout, n = t.orientation === "horizontal", { index: r, delta: i, innerIntersect: a, clientX: o, clientY: s } = e, c = this.node.getBoundingClientRect(), l = this.node.offsetWidth, u = this.node.offsetHeight, d = null;
			if (a) {
				let e = a.panel, t = e.node.getBoundingClientRect(), r = n ? s - t.top - a.delta : o - t.left - a.delta;
				e.layout.adjustHandle(a.index, r) && (d = {
					panel: e,
					width: e.node.offsetWidth,
					height: e.node.offsetHeight
				});
			}
			let f = n ? o - c.left - i : s - c.top - i, p = t.adjustHandle(r, f);
			d && C.sendMessage(d.panel, new j.ResizeMessage(d.width, d.height)), p && C.sendMessage(this, new j.ResizeMessage(l, u));
		}, this._applyHover = () => {
			this._hoverFrameId = -1;
			let e = this._hoverTarget;
			this._hoverTarget = null, this._updateIntersectionHover(e, this._hoverClientX, this._hoverClientY);
		}, this._handleMoved = new w(this), this._pressData = null, this._intersectionHoverStyler = new tt(), this._hoverFrameId = -1, this._hoverTarget = null, this._hoverClientX = 0, this._hoverClientY = 0, this.addClass("lm-SplitPanel");
	}
	dispose() {
		this._releaseMouse(), super.dispose();
	}
	get orientation() {
		return this.layout.orientation;
	}
	set orientation(e) {
		this.layout.orientation = e;
	}
	get alignment() {
		return this.layout.alignment;
	}
	set alignment(e) {
		this.layout.alignment = e;
	}
	get spacing() {
		return this.layout.spacing;
	}
	set spacing(e) {
		this.layout.spacing = e;
	}
	get renderer() {
		return this.layout.renderer;
	}
	get handleMoved() {
		return this._handleMoved;
	}
	get handles() {
		return this.layout.handles;
	}
	relativeSizes() {
		return this.layout.relativeSizes();
	}
	setRelativeSizes(e, t = !0) {
		this.layout.setRelativeSizes(e, t);
	}
	handleEvent(e) {
		switch (e.type) {
			case "pointerdown":
				this._evtPointerDown(e);
				break;
			case "pointermove":
				this._evtPointerMove(e);
				break;
			case "pointerleave":
				this._hoverFrameId !== -1 && (cancelAnimationFrame(this._hoverFrameId), this._hoverFrameId = -1), this._setIntersectionHoverHandle(null, null);
				break;
			case "pointerup":
				this._evtPointerUp(e);
				break;
			case "keydown":
				this._evtKeyDown(e);
				break;
			case "contextmenu": e.preventDefault(), e.stopPropagation();
		}
	}
	onBeforeAttach(e) {
		this.node.addEventListener("pointerdown", this), this.node.addEventListener("pointermove", this), this.node.addEventListener("pointerleave", this);
	}
	onAfterDetach(e) {
		this.node.removeEventListener("pointerdown", this), this.node.removeEventListener("pointermove", this), this.node.removeEventListener("pointerleave", this), this._hoverFrameId !== -1 && (cancelAnimationFrame(this._hoverFrameId), this._hoverFrameId = -1), this._setIntersectionHoverHandle(null, null), this._releaseMouse();
	}
	onChildAdded(e) {
		e.child.addClass("lm-SplitPanel-child"), this._releaseMouse();
	}
	onChildRemoved(e) {
		e.child.removeClass("lm-SplitPanel-child"), this._releaseMouse();
	}
	_evtKeyDown(e) {
		this._pressData && (e.preventDefault(), e.stopPropagation()), e.keyCode === 27 && this._releaseMouse();
	}
	_evtPointerDown(e) {
		if (e.button !== 0) return;
		let t = this.layout, n = y.findFirstIndex(t.handles, (t) => t.contains(e.target));
		if (n === -1) return;
		e.preventDefault(), e.stopPropagation(), this._hoverFrameId !== -1 && (cancelAnimationFrame(this._hoverFrameId), this._hoverFrameId = -1), document.addEventListener("pointerup", this, !0), document.addEventListener("pointermove", this, !0), document.addEventListener("keydown", this, !0), document.addEventListener("contextmenu", this, !0);
		let r = t.handles[n], i = r.getBoundingClientRect(), a = t.orientation === "horizontal" ? e.clientX - i.left : e.clientY - i.top, o = t.orientation === "horizontal" ? e.clientY : e.clientX, s = this._findInnerIntersect(n, o), c = window.getComputedStyle(r), l = s ? "move" : c.cursor, u = E.overrideCursor(l);
		this._pressData = {
			index: n,
			delta: a,
			override: u,
			innerIntersect: s ?? void 0,
			clientX: e.clientX,
			clientY: e.clientY,
			frameId: -1
		};
	}
	_evtPointerMove(e) {
		this._pressData ? (e.preventDefault(), e.stopPropagation(), this._pressData.clientX = e.clientX, this._pressData.clientY = e.clientY, this._pressData.frameId === -1 && (this._pressData.frameId = requestAnimationFrame(this._applyDrag))) : (this._hoverTarget = e.target, this._hoverClientX = e.clientX, this._hoverClientY = e.clientY, this._hoverFrameId === -1 && (this._hoverFrameId = requestAnimationFrame(this._applyHover)));
	}
	_evtPointerUp(e) {
		e.button === 0 && (e.preventDefault(), e.stopPropagation(), this._pressData && this._pressData.frameId !== -1 && (cancelAnimationFrame(this._pressData.frameId), this._applyDrag()), this._releaseMouse());
	}
	_releaseMouse() {
		if (!this._pressData) return;
		this._pressData.frameId !== -1 && cancelAnimationFrame(this._pressData.frameId), this._pressData.override.dispose();
		let e = this._pressData.innerIntersect?.panel;
		this._pressData = null, this.update(), this._handleMoved.emit(), e?._handleMoved.emit(), document.removeEventListener("keydown", this, !0), document.removeEventListener("pointerup", this, !0), document.removeEventListener("pointermove", this, !0), document.removeEventListener("contextmenu", this, !0);
	}
	_findInnerIntersect(t, n) {
		let r = this.layout, i = $e(r.spacing), a = null, o = 1e400, s = this.widgets.find((e, n) => n > t && !e.isHidden);
		for (let c of [this.widgets[t], s]) {
			if (!(c instanceof e) || c.orientation === r.orientation) continue;
			let t = c.layout;
			for (let e = 0; e < t.handles.length; e++) {
				let s = t.handles[e];
				if (s.classList.contains("lm-mod-hidden")) continue;
				let l = s.getBoundingClientRect(), u = r.orientation === "horizontal" ? l.top : l.left, d = r.orientation === "horizontal" ? l.bottom : l.right, f = Math.max(u - n, 0, n - d);
				f <= i && f < o && (a = {
					panel: c,
					index: e,
					delta: n - u
				}, o = f);
			}
		}
		return a;
	}
	_updateIntersectionHover(e, t, n) {
		let r = this.layout, i = et(this.node, e), a = i ? r.handles.indexOf(i) : -1;
		if (a === -1) {
			this._setIntersectionHoverHandle(null, null);
			return;
		}
		let o = r.handles[a], s = r.orientation === "horizontal" ? n : t, c = this._findInnerIntersect(a, s), l = c ? c.panel.layout.handles[c.index] ?? null : null;
		this._setIntersectionHoverHandle(c ? o : null, l);
	}
	_setIntersectionHoverHandle(e, t = null) {
		this._intersectionHoverStyler.set(e, t);
	}
};
(function(e) {
	class t {
		createHandle() {
			let e = document.createElement("div");
			return e.className = "lm-SplitPanel-handle", e;
		}
	}
	e.Renderer = t, e.defaultRenderer = new t(), e.getStretch = function(e) {
		return Ye.getStretch(e);
	}, e.setStretch = function(e, t) {
		Ye.setStretch(e, t);
	};
})(it ||= {});
var at;
(function(e) {
	e.createLayout = function(e) {
		return e.layout || new Ye({
			renderer: e.renderer || it.defaultRenderer,
			orientation: e.orientation,
			alignment: e.alignment,
			spacing: e.spacing
		});
	};
})(at ||= {});
var ot = class extends it {
	constructor(e = {}) {
		super({
			...e,
			layout: st.createLayout(e)
		}), this._widgetSizesCache = /* @__PURE__ */ new WeakMap(), this._expansionToggled = new w(this), this.addClass("lm-AccordionPanel");
	}
	get renderer() {
		return this.layout.renderer;
	}
	get titleSpace() {
		return this.layout.titleSpace;
	}
	set titleSpace(e) {
		this.layout.titleSpace = e;
	}
	get titles() {
		return this.layout.titles;
	}
	get expansionToggled() {
		return this._expansionToggled;
	}
	addWidget(e) {
		super.addWidget(e), e.title.changed.connect(this._onTitleChanged, this);
	}
	collapse(e) {
		let t = this.layout.widgets[e];
		t && !t.isHidden && this._toggleExpansion(e);
	}
	expand(e) {
		let t = this.layout.widgets[e];
		t && t.isHidden && this._toggleExpansion(e);
	}
	insertWidget(e, t) {
		super.insertWidget(e, t), t.title.changed.connect(this._onTitleChanged, this);
	}
	handleEvent(e) {
		switch (super.handleEvent(e), e.type) {
			case "click":
				this._evtClick(e);
				break;
			case "keydown": this._eventKeyDown(e);
		}
	}
	onBeforeAttach(e) {
		this.node.addEventListener("click", this), this.node.addEventListener("keydown", this), super.onBeforeAttach(e);
	}
	onAfterDetach(e) {
		super.onAfterDetach(e), this.node.removeEventListener("click", this), this.node.removeEventListener("keydown", this);
	}
	_onTitleChanged(e) {
		let t = y.findFirstIndex(this.widgets, (t) => t.contains(e.owner));
		t >= 0 && (this.layout.updateTitle(t, e.owner), this.update());
	}
	_computeWidgetSize(e) {
		let t = this.layout, n = t.widgets[e];
		if (!n) return;
		let r = n.isHidden, i = t.absoluteSizes(), a = (r ? -1 : 1) * this.spacing, o = i.reduce((e, t) => e + t), s = [...i];
		if (r) {
			let t = this._widgetSizesCache.get(n);
			if (!t) return;
			s[e] += t;
			let r = s.map((e) => e - t > 0).lastIndexOf(!0);
			r === -1 ? s.forEach((n, r) => {
				r !== e && (s[r] -= i[r] / o * (t - a));
			}) : s[r] -= t - a;
		} else {
			let t = i[e];
			this._widgetSizesCache.set(n, t), s[e] = 0;
			let r = s.map((e) => e > 0).lastIndexOf(!0);
			if (r === -1) return;
			s[r] = i[r] + t + a;
		}
		return s.map((e) => e / (o + a));
	}
	_evtClick(e) {
		let t = e.target;
		if (t) {
			let n = y.findFirstIndex(this.titles, (e) => e.contains(t));
			n >= 0 && (e.preventDefault(), e.stopPropagation(), this._toggleExpansion(n));
		}
	}
	_eventKeyDown(e) {
		if (e.defaultPrevented) return;
		let t = e.target, n = !1;
		if (t) {
			let r = y.findFirstIndex(this.titles, (e) => e.contains(t));
			if (r >= 0) {
				let i = e.keyCode.toString();
				if (e.key.match(/Space|Enter/) || i.match(/13|32/)) t.click(), n = !0;
				else if (this.orientation === "horizontal" ? e.key.match(/ArrowLeft|ArrowRight/) || i.match(/37|39/) : e.key.match(/ArrowUp|ArrowDown/) || i.match(/38|40/)) {
					let t = e.key.match(/ArrowLeft|ArrowUp/) || i.match(/37|38/) ? -1 : 1, a = this.titles.length, o = (r + a + t) % a;
					this.titles[o].focus(), n = !0;
				} else e.key === "End" || i === "35" ? (this.titles[this.titles.length - 1].focus(), n = !0) : (e.key === "Home" || i === "36") && (this.titles[0].focus(), n = !0);
			}
			n && e.preventDefault();
		}
	}
	_toggleExpansion(e) {
		let t = this.titles[e], n = this.layout.widgets[e], r = this._computeWidgetSize(e);
		r && this.setRelativeSizes(r, !1), n.isHidden ? (t.classList.add("lm-mod-expanded"), t.setAttribute("aria-expanded", "true"), n.show()) : (t.classList.remove("lm-mod-expanded"), t.setAttribute("aria-expanded", "false"), n.hide()), this._expansionToggled.emit(e);
	}
};
(function(e) {
	class t extends it.Renderer {
		constructor() {
			super(), this.titleClassName = "lm-AccordionPanel-title", this._titleID = 0, this._titleKeys = /* @__PURE__ */ new WeakMap(), this._uuid = ++t._nInstance;
		}
		createCollapseIcon(e) {
			return document.createElement("span");
		}
		createSectionTitle(e) {
			let t = document.createElement("h3");
			t.setAttribute("tabindex", "0"), t.id = this.createTitleKey(e), t.className = this.titleClassName;
			for (let n in e.dataset) t.dataset[n] = e.dataset[n];
			let n = t.appendChild(this.createCollapseIcon(e));
			n.className = "lm-AccordionPanel-titleCollapser";
			let r = t.appendChild(document.createElement("span"));
			return r.className = "lm-AccordionPanel-titleLabel", r.textContent = e.label, r.title = e.caption || e.label, t;
		}
		createTitleKey(e) {
			let t = this._titleKeys.get(e);
			return t === void 0 && (t = `title-key-${this._uuid}-${this._titleID++}`, this._titleKeys.set(e, t)), t;
		}
	}
	t._nInstance = 0, e.Renderer = t, e.defaultRenderer = new t();
})(ot ||= {});
var st;
(function(e) {
	e.createLayout = function(e) {
		return e.layout || new Xe({
			renderer: e.renderer || ot.defaultRenderer,
			orientation: e.orientation,
			alignment: e.alignment,
			spacing: e.spacing,
			titleSpace: e.titleSpace
		});
	};
})(st ||= {});
var ct = class e extends Je {
	constructor(e = {}) {
		super(), this._fixed = 0, this._spacing = 4, this._dirty = !1, this._sizers = [], this._items = [], this._box = null, this._alignment = "start", this._direction = "top-to-bottom", e.direction !== void 0 && (this._direction = e.direction), e.alignment !== void 0 && (this._alignment = e.alignment), e.spacing !== void 0 && (this._spacing = A.clampDimension(e.spacing));
	}
	dispose() {
		for (let e of this._items) e.dispose();
		this._box = null, this._items.length = 0, this._sizers.length = 0, super.dispose();
	}
	get direction() {
		return this._direction;
	}
	set direction(e) {
		this._direction !== e && (this._direction = e, this.parent && (this.parent.dataset.direction = e, this.parent.fit()));
	}
	get alignment() {
		return this._alignment;
	}
	set alignment(e) {
		this._alignment !== e && (this._alignment = e, this.parent && (this.parent.dataset.alignment = e, this.parent.update()));
	}
	get spacing() {
		return this._spacing;
	}
	set spacing(e) {
		e = A.clampDimension(e), this._spacing !== e && (this._spacing = e, this.parent && this.parent.fit());
	}
	init() {
		this.parent.dataset.direction = this.direction, this.parent.dataset.alignment = this.alignment, super.init();
	}
	attachWidget(e, t) {
		y.insert(this._items, e, new Ke(t)), y.insert(this._sizers, e, new Ve()), this.parent.isAttached && C.sendMessage(t, j.Msg.BeforeAttach);
		let n = this._items[e + 1];
		this.parent.node.insertBefore(t.node, n ? n.widget.node : null), this.parent.isAttached && C.sendMessage(t, j.Msg.AfterAttach), this.parent.fit();
	}
	moveWidget(e, t, n) {
		if (y.move(this._items, e, t), y.move(this._sizers, e, t), A.moveKeepsState(this.parent.node)) {
			let e = this._items[t + 1];
			A.moveBefore(this.parent.node, n.node, e ? e.widget.node : null);
		}
		this.parent.update();
	}
	detachWidget(e, t) {
		let n = y.removeAt(this._items, e);
		y.removeAt(this._sizers, e), this.parent.isAttached && C.sendMessage(t, j.Msg.BeforeDetach), this.parent.node.removeChild(t.node), this.parent.isAttached && C.sendMessage(t, j.Msg.AfterDetach), n.dispose(), this.parent.fit();
	}
	onBeforeShow(e) {
		super.onBeforeShow(e), this.parent.update();
	}
	onBeforeAttach(e) {
		super.onBeforeAttach(e), this.parent.fit();
	}
	onChildShown(e) {
		this.parent.fit();
	}
	onChildHidden(e) {
		this.parent.fit();
	}
	onResize(e) {
		this.parent.isVisible && this._update(e.width, e.height);
	}
	onUpdateRequest(e) {
		this.parent.isVisible && this._update(-1, -1);
	}
	onFitRequest(e) {
		this.parent.isAttached && this._fit();
	}
	_fit() {
		let t = 0;
		for (let e = 0, n = this._items.length; e < n; ++e) t += +!this._items[e].isHidden;
		this._fixed = this._spacing * Math.max(0, t - 1);
		let n = lt.isHorizontal(this._direction), r = n ? this._fixed : 0, i = n ? 0 : this._fixed;
		for (let t = 0, a = this._items.length; t < a; ++t) {
			let a = this._items[t], o = this._sizers[t];
			a.isHidden ? (o.minSize = 0, o.maxSize = 0) : (a.fit(), o.sizeHint = e.getSizeBasis(a.widget), o.stretch = e.getStretch(a.widget), n ? (o.minSize = a.minWidth, o.maxSize = a.maxWidth, r += a.minWidth, i = Math.max(i, a.minHeight)) : (o.minSize = a.minHeight, o.maxSize = a.maxHeight, i += a.minHeight, r = Math.max(r, a.minWidth)));
		}
		let a = this._box = x.boxSizing(this.parent.node);
		r += a.horizontalSum, i += a.verticalSum;
		let o = this.parent.node.style;
		o.minWidth = `${r}px`, o.minHeight = `${i}px`, this._dirty = !0, this.parent.parent && C.sendMessage(this.parent.parent, j.Msg.FitRequest), this._dirty && C.sendMessage(this.parent, j.Msg.UpdateRequest);
	}
	_update(e, t) {
		this._dirty = !1;
		let n = 0;
		for (let e = 0, t = this._items.length; e < t; ++e) n += +!this._items[e].isHidden;
		if (n === 0) return;
		e < 0 && (e = this.parent.node.offsetWidth), t < 0 && (t = this.parent.node.offsetHeight), this._box ||= x.boxSizing(this.parent.node);
		let r = this._box.paddingTop, i = this._box.paddingLeft, a = e - this._box.horizontalSum, o = t - this._box.verticalSum, s;
		switch (this._direction) {
			case "left-to-right":
				s = k.calc(this._sizers, Math.max(0, a - this._fixed));
				break;
			case "top-to-bottom":
				s = k.calc(this._sizers, Math.max(0, o - this._fixed));
				break;
			case "right-to-left":
				s = k.calc(this._sizers, Math.max(0, a - this._fixed)), i += a;
				break;
			case "bottom-to-top":
				s = k.calc(this._sizers, Math.max(0, o - this._fixed)), r += o;
				break;
			default: throw "unreachable";
		}
		let c = 0, l = 0;
		if (s > 0) switch (this._alignment) {
			case "start": break;
			case "center":
				c = 0, l = s / 2;
				break;
			case "end":
				c = 0, l = s;
				break;
			case "justify":
				c = s / n, l = 0;
				break;
			default: throw "unreachable";
		}
		for (let e = 0, t = this._items.length; e < t; ++e) {
			let t = this._items[e];
			if (t.isHidden) continue;
			let n = this._sizers[e].size;
			switch (this._direction) {
				case "left-to-right":
					t.update(i + l, r, n + c, o), i += n + c + this._spacing;
					break;
				case "top-to-bottom":
					t.update(i, r + l, a, n + c), r += n + c + this._spacing;
					break;
				case "right-to-left":
					t.update(i - l - n - c, r, n + c, o), i -= n + c + this._spacing;
					break;
				case "bottom-to-top":
					t.update(i, r - l - n - c, a, n + c), r -= n + c + this._spacing;
					break;
				default: throw "unreachable";
			}
		}
	}
};
(function(e) {
	e.getStretch = function(e) {
		return lt.stretchProperty.get(e);
	}, e.setStretch = function(e, t) {
		lt.stretchProperty.set(e, t);
	}, e.getSizeBasis = function(e) {
		return lt.sizeBasisProperty.get(e);
	}, e.setSizeBasis = function(e, t) {
		lt.sizeBasisProperty.set(e, t);
	};
})(ct ||= {});
var lt;
(function(e) {
	e.stretchProperty = new Ee({
		name: "stretch",
		create: () => 0,
		coerce: (e, t) => Math.max(0, Math.floor(t)),
		changed: t
	}), e.sizeBasisProperty = new Ee({
		name: "sizeBasis",
		create: () => 0,
		coerce: (e, t) => Math.max(0, Math.floor(t)),
		changed: t
	}), e.isHorizontal = function(e) {
		return e === "left-to-right" || e === "right-to-left";
	}, e.clampSpacing = function(e) {
		return Math.max(0, Math.floor(e));
	};
	function t(e) {
		e.parent && e.parent.layout instanceof ct && e.parent.fit();
	}
})(lt ||= {});
var ut = class extends nt {
	constructor(e = {}) {
		super({ layout: dt.createLayout(e) }), this.addClass("lm-BoxPanel");
	}
	get direction() {
		return this.layout.direction;
	}
	set direction(e) {
		this.layout.direction = e;
	}
	get alignment() {
		return this.layout.alignment;
	}
	set alignment(e) {
		this.layout.alignment = e;
	}
	get spacing() {
		return this.layout.spacing;
	}
	set spacing(e) {
		this.layout.spacing = e;
	}
	onChildAdded(e) {
		e.child.addClass("lm-BoxPanel-child");
	}
	onChildRemoved(e) {
		e.child.removeClass("lm-BoxPanel-child");
	}
};
(function(e) {
	e.getStretch = function(e) {
		return ct.getStretch(e);
	}, e.setStretch = function(e, t) {
		ct.setStretch(e, t);
	}, e.getSizeBasis = function(e) {
		return ct.getSizeBasis(e);
	}, e.setSizeBasis = function(e, t) {
		ct.setSizeBasis(e, t);
	};
})(ut ||= {});
var dt;
(function(e) {
	e.createLayout = function(e) {
		return e.layout || new ct(e);
	};
})(dt ||= {});
var ft = class e extends j {
	constructor(t) {
		super({ node: pt.createNode() }), this._activeIndex = -1, this._itemTriggered = new w(this), this._items = [], this._results = null, this.addClass("lm-CommandPalette"), this.setFlag(j.Flag.DisallowLayout), this.commands = t.commands, this.renderer = t.renderer || e.defaultRenderer, this.commands.commandChanged.connect(this._onGenericChange, this), this.commands.keyBindingChanged.connect(this._onGenericChange, this);
	}
	dispose() {
		this._items.length = 0, this._results = null, super.dispose();
	}
	get itemTriggered() {
		return this._itemTriggered;
	}
	get searchNode() {
		return this.node.getElementsByClassName("lm-CommandPalette-search")[0];
	}
	get inputNode() {
		return this.node.getElementsByClassName("lm-CommandPalette-input")[0];
	}
	get contentNode() {
		return this.node.getElementsByClassName("lm-CommandPalette-content")[0];
	}
	get items() {
		return this._items;
	}
	addItem(e) {
		let t = pt.createItem(this.commands, e);
		return this._items.push(t), this.refresh(), t;
	}
	addItems(e) {
		let t = e.map((e) => pt.createItem(this.commands, e));
		return t.forEach((e) => this._items.push(e)), this.refresh(), t;
	}
	removeItem(e) {
		this.removeItemAt(this._items.indexOf(e));
	}
	removeItemAt(e) {
		y.removeAt(this._items, e) && this.refresh();
	}
	clearItems() {
		this._items.length !== 0 && (this._items.length = 0, this.refresh());
	}
	refresh() {
		if (this._results = null, this.inputNode.value !== "") {
			let e = this.node.getElementsByClassName("lm-close-icon")[0];
			e.style.display = "inherit";
		} else {
			let e = this.node.getElementsByClassName("lm-close-icon")[0];
			e.style.display = "none";
		}
		this.update();
	}
	handleEvent(e) {
		switch (e.type) {
			case "click":
				this._evtClick(e);
				break;
			case "keydown":
				this._evtKeyDown(e);
				break;
			case "input":
				this.refresh();
				break;
			case "focus":
			case "blur": this._toggleFocused();
		}
	}
	search(t) {
		return e.search(this.items, t);
	}
	initialActiveIndex(e, t) {
		return e ? y.findFirstIndex(t, pt.canActivate) : -1;
	}
	onBeforeAttach(e) {
		this.node.addEventListener("click", this), this.node.addEventListener("keydown", this), this.node.addEventListener("input", this), this.node.addEventListener("focus", this, !0), this.node.addEventListener("blur", this, !0);
	}
	onAfterDetach(e) {
		this.node.removeEventListener("click", this), this.node.removeEventListener("keydown", this), this.node.removeEventListener("input", this), this.node.removeEventListener("focus", this, !0), this.node.removeEventListener("blur", this, !0);
	}
	onAfterShow(e) {
		this.update(), super.onAfterShow(e);
	}
	onActivateRequest(e) {
		if (this.isAttached) {
			let e = this.inputNode;
			e.focus(), e.select();
		}
	}
	onUpdateRequest(e) {
		if (!this.isVisible) {
			ze.render(null, this.contentNode);
			return;
		}
		let t = this.inputNode.value, n = this.contentNode, r = this._results;
		if (r || (r = this._results = this.search(t), this._activeIndex = this.initialActiveIndex(t, r)), !t && r.length === 0) {
			ze.render(null, n);
			return;
		}
		if (t && r.length === 0) {
			let e = this.renderer.renderEmptyMessage({ query: t });
			ze.render(e, n);
			return;
		}
		let i = this.renderer, a = this._activeIndex, o = Array(r.length);
		for (let e = 0, t = r.length; e < t; ++e) {
			let t = r[e];
			if (t.type === "header") {
				let n = t.indices, r = t.category;
				o[e] = i.renderHeader({
					category: r,
					indices: n
				});
			} else {
				let n = t.item, r = t.indices, s = e === a;
				o[e] = i.renderItem({
					item: n,
					indices: r,
					active: s
				});
			}
		}
		if (ze.render(o, n), a < 0 || a >= r.length) n.scrollTop = 0;
		else {
			let e = n.children[a];
			x.scrollIntoViewIfNeeded(n, e);
		}
	}
	_evtClick(e) {
		if (e.button !== 0) return;
		if (e.target.classList.contains("lm-close-icon")) {
			this.inputNode.value = "", this.refresh();
			return;
		}
		let t = y.findFirstIndex(this.contentNode.children, (t) => t.contains(e.target));
		t !== -1 && (e.preventDefault(), e.stopPropagation(), this._execute(t));
	}
	_evtKeyDown(e) {
		if (!(e.altKey || e.ctrlKey || e.metaKey || e.shiftKey)) switch (e.keyCode) {
			case 13:
				e.preventDefault(), e.stopPropagation(), this._execute(this._activeIndex);
				break;
			case 38:
				e.preventDefault(), e.stopPropagation(), this._activatePreviousItem();
				break;
			case 40: e.preventDefault(), e.stopPropagation(), this._activateNextItem();
		}
	}
	_activateNextItem() {
		if (!this._results || this._results.length === 0) return;
		let e = this._activeIndex, t = this._results.length, n = e < t - 1 ? e + 1 : 0, r = n === 0 ? t - 1 : n - 1;
		this._activeIndex = y.findFirstIndex(this._results, pt.canActivate, n, r), this.update();
	}
	_activatePreviousItem() {
		if (!this._results || this._results.length === 0) return;
		let e = this._activeIndex, t = this._results.length, n = e <= 0 ? t - 1 : e - 1, r = n === t - 1 ? 0 : n + 1;
		this._activeIndex = y.findLastIndex(this._results, pt.canActivate, n, r), this.update();
	}
	_execute(e) {
		if (!this._results) return;
		let t = this._results[e];
		if (t) {
			if (t.type === "header") {
				let e = this.inputNode;
				e.value = `${t.category.toLowerCase()} `, e.focus(), this.refresh();
			} else t.item.isEnabled && (this._itemTriggered.emit(t.item), this.commands.execute(t.item.command, t.item.args), this.inputNode.value = "", this.refresh());
		}
	}
	_toggleFocused() {
		let e = document.activeElement === this.inputNode;
		this.toggleClass("lm-mod-focused", e);
	}
	_onGenericChange() {
		this.refresh();
	}
};
(function(e) {
	class t {
		renderHeader(e) {
			let t = this.formatHeader(e);
			return O.li({ className: "lm-CommandPalette-header" }, t);
		}
		renderItem(e) {
			let t = this.createItemClass(e), n = this.createItemDataset(e);
			return e.item.isToggleable ? O.li({
				className: t,
				dataset: n,
				role: "menuitemcheckbox",
				"aria-checked": `${e.item.isToggled}`
			}, this.renderItemIcon(e), this.renderItemContent(e), this.renderItemShortcut(e)) : O.li({
				className: t,
				dataset: n,
				role: "menuitem"
			}, this.renderItemIcon(e), this.renderItemContent(e), this.renderItemShortcut(e));
		}
		renderEmptyMessage(e) {
			let t = this.formatEmptyMessage(e);
			return O.li({ className: "lm-CommandPalette-emptyMessage" }, t);
		}
		renderItemIcon(e) {
			let t = this.createIconClass(e);
			return O.div({ className: t }, e.item.icon, e.item.iconLabel);
		}
		renderItemContent(e) {
			return O.div({ className: "lm-CommandPalette-itemContent" }, this.renderItemLabel(e), this.renderItemCaption(e));
		}
		renderItemLabel(e) {
			let t = this.formatItemLabel(e);
			return O.div({ className: "lm-CommandPalette-itemLabel" }, t);
		}
		renderItemCaption(e) {
			let t = this.formatItemCaption(e);
			return O.div({ className: "lm-CommandPalette-itemCaption" }, t);
		}
		renderItemShortcut(e) {
			let t = this.formatItemShortcut(e);
			return O.div({ className: "lm-CommandPalette-itemShortcut" }, t);
		}
		createItemClass(e) {
			let t = "lm-CommandPalette-item";
			e.item.isEnabled || (t += " lm-mod-disabled"), e.item.isToggled && (t += " lm-mod-toggled"), e.active && (t += " lm-mod-active");
			let n = e.item.className;
			return n && (t += ` ${n}`), t;
		}
		createItemDataset(e) {
			return {
				...e.item.dataset,
				command: e.item.command
			};
		}
		createIconClass(e) {
			let t = "lm-CommandPalette-itemIcon", n = e.item.iconClass;
			return n ? `${t} ${n}` : t;
		}
		formatHeader(e) {
			return !e.indices || e.indices.length === 0 ? e.category : ge.highlight(e.category, e.indices, O.mark);
		}
		formatEmptyMessage(e) {
			return `No commands found that match '${e.query}'`;
		}
		formatItemShortcut(e) {
			let t = e.item.keyBinding;
			return t ? Fe.formatKeystroke(t.keys) : null;
		}
		formatItemLabel(e) {
			return !e.indices || e.indices.length === 0 ? e.item.label : ge.highlight(e.item.label, e.indices, O.mark);
		}
		formatItemCaption(e) {
			return e.item.caption;
		}
	}
	e.Renderer = t, e.defaultRenderer = new t(), e.search = function(e, t) {
		return pt.search(e, t);
	};
})(ft ||= {});
var pt;
(function(e) {
	e.createNode = function() {
		let e = document.createElement("div"), t = document.createElement("div"), n = document.createElement("div"), r = document.createElement("input"), i = document.createElement("ul"), a = document.createElement("button");
		return t.className = "lm-CommandPalette-search", n.className = "lm-CommandPalette-wrapper", r.className = "lm-CommandPalette-input", a.className = "lm-close-icon", i.className = "lm-CommandPalette-content", i.setAttribute("role", "menu"), r.spellcheck = !1, n.appendChild(r), n.appendChild(a), t.appendChild(n), e.appendChild(t), e.appendChild(i), e;
	}, e.createItem = function(e, t) {
		return new s(e, t);
	}, e.search = function(e, t) {
		let n = r(e, t);
		return n.sort(a), o(n);
	}, e.canActivate = function(e) {
		return e.type === "item" && e.item.isEnabled;
	};
	function t(e) {
		return e.trim().replace(/\s+/g, " ");
	}
	function n(e) {
		return e.replace(/\s+/g, "").toLowerCase();
	}
	function r(e, t) {
		t = n(t);
		let r = [];
		for (let n = 0, a = e.length; n < a; ++n) {
			let a = e[n];
			if (!a.isVisible) continue;
			if (!t) {
				r.push({
					matchType: 3,
					categoryIndices: null,
					labelIndices: null,
					score: 0,
					item: a
				});
				continue;
			}
			let o = i(a, t);
			o && (a.isEnabled || (o.score += 1e3), r.push(o));
		}
		return r;
	}
	function i(e, t) {
		let n = e.category.toLowerCase(), r = `${n} ${e.label.toLowerCase()}`, i = 1e400, a = null, o = /\b\w/g;
		for (;;) {
			let e = o.exec(r);
			if (!e) break;
			let n = ge.matchSumOfDeltas(r, t, e.index);
			if (!n) break;
			n.score <= i && (i = n.score, a = n.indices);
		}
		if (!a || i === 1e400) return null;
		let s = n.length + 1, c = y.lowerBound(a, s, (e, t) => e - t), l = a.slice(0, c), u = a.slice(c);
		for (let e = 0, t = u.length; e < t; ++e) u[e] -= s;
		return l.length === 0 ? {
			matchType: 0,
			categoryIndices: null,
			labelIndices: u,
			score: i,
			item: e
		} : u.length === 0 ? {
			matchType: 1,
			categoryIndices: l,
			labelIndices: null,
			score: i,
			item: e
		} : {
			matchType: 2,
			categoryIndices: l,
			labelIndices: u,
			score: i,
			item: e
		};
	}
	function a(e, t) {
		let n = e.matchType - t.matchType;
		if (n !== 0) return n;
		let r = e.score - t.score;
		if (r !== 0) return r;
		let i = 0, a = 0;
		switch (e.matchType) {
			case 0:
				i = e.labelIndices[0], a = t.labelIndices[0];
				break;
			case 1:
			case 2: i = e.categoryIndices[0], a = t.categoryIndices[0];
		}
		if (i !== a) return i - a;
		let o = e.item.category.localeCompare(t.item.category);
		if (o !== 0) return o;
		let s = e.item.rank, c = t.item.rank;
		return s === c ? e.item.label.localeCompare(t.item.label) : s < c ? -1 : 1;
	}
	function o(e) {
		let t = [];
		for (let n = 0, r = e.length; n < r; ++n) {
			let { item: r, categoryIndices: i, labelIndices: a } = e[n], o = r.category;
			(n === 0 || o !== e[n - 1].item.category) && t.push({
				type: "header",
				category: o,
				indices: i
			}), t.push({
				type: "item",
				item: r,
				indices: a
			});
		}
		return t;
	}
	class s {
		constructor(e, n) {
			this._commands = e, this.category = t(n.category), this.command = n.command, this.args = n.args || b.JSONExt.emptyObject, this.rank = n.rank === void 0 ? 1e400 : n.rank;
		}
		get label() {
			return this._commands.label(this.command, this.args);
		}
		get icon() {
			return this._commands.icon(this.command, this.args);
		}
		get iconClass() {
			return this._commands.iconClass(this.command, this.args);
		}
		get iconLabel() {
			return this._commands.iconLabel(this.command, this.args);
		}
		get caption() {
			return this._commands.caption(this.command, this.args);
		}
		get className() {
			return this._commands.className(this.command, this.args);
		}
		get dataset() {
			return this._commands.dataset(this.command, this.args);
		}
		get isEnabled() {
			return this._commands.isEnabled(this.command, this.args);
		}
		get isToggled() {
			return this._commands.isToggled(this.command, this.args);
		}
		get isToggleable() {
			return this._commands.isToggleable(this.command, this.args);
		}
		get isVisible() {
			return this._commands.isVisible(this.command, this.args);
		}
		get keyBinding() {
			let { command: e, args: t } = this;
			return y.findLastValue(this._commands.keyBindings, (n) => n.command === e && b.JSONExt.deepEqual(n.args, t)) || null;
		}
	}
})(pt ||= {});
var mt = class e extends j {
	constructor(t) {
		super({ node: ht.createNode() }), this._childIndex = -1, this._activeIndex = -1, this._openTimerID = 0, this._closeTimerID = 0, this._pendingTouchActivation = !1, this._items = [], this._childMenu = null, this._parentMenu = null, this._aboutToClose = new w(this), this._menuRequested = new w(this), this.addClass("lm-Menu"), this.setFlag(j.Flag.DisallowLayout), this.commands = t.commands, this.renderer = t.renderer || e.defaultRenderer;
	}
	dispose() {
		this.close(), this._items.length = 0, super.dispose();
	}
	get aboutToClose() {
		return this._aboutToClose;
	}
	get menuRequested() {
		return this._menuRequested;
	}
	get parentMenu() {
		return this._parentMenu;
	}
	get childMenu() {
		return this._childMenu;
	}
	get rootMenu() {
		let e = this;
		for (; e._parentMenu;) e = e._parentMenu;
		return e;
	}
	get leafMenu() {
		let e = this;
		for (; e._childMenu;) e = e._childMenu;
		return e;
	}
	get contentNode() {
		return this.node.getElementsByClassName("lm-Menu-content")[0];
	}
	get activeItem() {
		return this._items[this._activeIndex] || null;
	}
	set activeItem(e) {
		this.activeIndex = e ? this._items.indexOf(e) : -1;
	}
	get activeIndex() {
		return this._activeIndex;
	}
	set activeIndex(e) {
		(e < 0 || e >= this._items.length) && (e = -1), e !== -1 && !ht.canActivate(this._items[e]) && (e = -1), this._activeIndex !== e && (this._activeIndex = e, this._activeIndex >= 0 && this.contentNode.childNodes[this._activeIndex] && this.contentNode.childNodes[this._activeIndex].focus(), this.update());
	}
	get items() {
		return this._items;
	}
	activateNextItem() {
		let e = this._items.length, t = this._activeIndex, n = t < e - 1 ? t + 1 : 0, r = n === 0 ? e - 1 : n - 1;
		this.activeIndex = y.findFirstIndex(this._items, ht.canActivate, n, r);
	}
	activatePreviousItem() {
		let e = this._items.length, t = this._activeIndex, n = t <= 0 ? e - 1 : t - 1, r = n === e - 1 ? 0 : n + 1;
		this.activeIndex = y.findLastIndex(this._items, ht.canActivate, n, r);
	}
	triggerActiveItem() {
		if (!this.isAttached) return;
		let e = this.activeItem;
		if (!e) return;
		if (this._cancelOpenTimer(), this._cancelCloseTimer(), e.type === "submenu") {
			this._openChildMenu(!0);
			return;
		}
		this.rootMenu.close();
		let { command: t, args: n } = e;
		this.commands.isEnabled(t, n) ? this.commands.execute(t, n) : console.log(`Command '${t}' is disabled.`);
	}
	addItem(e) {
		return this.insertItem(this._items.length, e);
	}
	insertItem(e, t) {
		this.isAttached && this.close(), this.activeIndex = -1;
		let n = Math.max(0, Math.min(e, this._items.length)), r = ht.createItem(this, t);
		return y.insert(this._items, n, r), this.update(), r;
	}
	removeItem(e) {
		let t = this._items.indexOf(e);
		t !== -1 && this.removeItemAt(t);
	}
	removeItemAt(e) {
		this.isAttached && this.close(), this.activeIndex = -1, y.removeAt(this._items, e) && this.update();
	}
	clearItems() {
		this.isAttached && this.close(), this.activeIndex = -1, this._items.length !== 0 && (this._items.length = 0, this.update());
	}
	open(e, t, n = {}) {
		if (this.isAttached) return;
		let r = n.forceX || !1, i = n.forceY || !1, a = n.host ?? null, o = n.ref ?? null, s = a?.ownerDocument ?? document, c = n.horizontalAlignment ?? (s.documentElement.dir === "rtl" ? "right" : "left");
		ht.openRootMenu(this, e, t, r, i, c, a, o), this.activate();
	}
	handleEvent(e) {
		switch (e.type) {
			case "keydown":
				this._evtKeyDown(e);
				break;
			case "click":
				this._evtClick(e);
				break;
			case "pointerup":
				this._evtPointerUp(e);
				break;
			case "pointermove":
				this._evtPointerMove(e);
				break;
			case "pointerenter":
				this._evtPointerEnter(e);
				break;
			case "pointerleave":
				this._evtPointerLeave(e);
				break;
			case "pointerdown":
				this._evtPointerDown(e);
				break;
			case "contextmenu": e.preventDefault(), e.stopPropagation();
		}
	}
	onBeforeAttach(e) {
		this.node.addEventListener("keydown", this), this.node.addEventListener("click", this), this.node.addEventListener("pointerup", this), this.node.addEventListener("pointermove", this), this.node.addEventListener("pointerenter", this), this.node.addEventListener("pointerleave", this), this.node.addEventListener("contextmenu", this), this.node.ownerDocument.addEventListener("pointerdown", this, !0);
	}
	onAfterDetach(e) {
		this.node.removeEventListener("keydown", this), this.node.removeEventListener("click", this), this.node.removeEventListener("pointerup", this), this.node.removeEventListener("pointermove", this), this.node.removeEventListener("pointerenter", this), this.node.removeEventListener("pointerleave", this), this.node.removeEventListener("contextmenu", this), this.node.ownerDocument.removeEventListener("pointerdown", this, !0), this._pendingTouchActivation = !1;
	}
	onActivateRequest(e) {
		this.isAttached && this.node.focus();
	}
	onUpdateRequest(e) {
		let t = this._items, n = this.renderer, r = this._activeIndex, i = ht.computeCollapsed(t), a = Array(t.length);
		for (let e = 0, o = t.length; e < o; ++e) {
			let o = t[e], s = e === r, c = i[e];
			a[e] = n.renderItem({
				item: o,
				active: s,
				collapsed: c,
				onfocus: () => {
					this.activeIndex = e;
				}
			});
		}
		ze.render(a, this.contentNode);
	}
	onCloseRequest(e) {
		this._cancelOpenTimer(), this._cancelCloseTimer(), this.activeIndex = -1, this._pendingTouchActivation = !1;
		let t = this._childMenu;
		t && (this._childIndex = -1, this._childMenu = null, t._parentMenu = null, t.close());
		let n = this._parentMenu;
		n && (this._parentMenu = null, n._childIndex = -1, n._childMenu = null, n.activate()), this.isAttached && this._aboutToClose.emit(void 0), super.onCloseRequest(e);
	}
	_evtKeyDown(e) {
		e.preventDefault(), e.stopPropagation();
		let t = e.keyCode;
		if (t === 13) {
			this.triggerActiveItem();
			return;
		}
		if (t === 27) {
			this.close();
			return;
		}
		if (t === 37) {
			this._parentMenu ? this.close() : this._menuRequested.emit("previous");
			return;
		}
		if (t === 38) {
			this.activatePreviousItem();
			return;
		}
		if (t === 39) {
			let e = this.activeItem;
			e && e.type === "submenu" ? this.triggerActiveItem() : this.rootMenu._menuRequested.emit("next");
			return;
		}
		if (t === 40) {
			this.activateNextItem();
			return;
		}
		let n = je().keyForKeydownEvent(e);
		if (!n) return;
		let r = this._activeIndex + 1, i = ht.findMnemonic(this._items, n, r);
		i.index !== -1 && !i.multiple ? (this.activeIndex = i.index, this.triggerActiveItem()) : i.index === -1 ? i.auto !== -1 && (this.activeIndex = i.auto) : this.activeIndex = i.index;
	}
	_evtPointerUp(e) {
		e.button === 0 && (A.isTouchEvent(e) ? (this._pendingTouchActivation = this._activateItemFromEvent(e), e.stopPropagation()) : (e.preventDefault(), e.stopPropagation(), this._activateItemFromEvent(e), this.triggerActiveItem()));
	}
	_evtClick(e) {
		this._pendingTouchActivation && (this._pendingTouchActivation = !1, e.preventDefault(), e.stopPropagation(), this._activateItemFromEvent(e) && this.triggerActiveItem());
	}
	_evtPointerMove(e) {
		if (A.isTouchEvent(e)) return;
		let t = y.findFirstIndex(this.contentNode.children, (t) => x.hitTest(t, e.clientX, e.clientY));
		if (t === this._activeIndex) return;
		if (this.activeIndex = t, t = this.activeIndex, t === this._childIndex) {
			this._cancelOpenTimer(), this._cancelCloseTimer();
			return;
		}
		this._childIndex !== -1 && this._startCloseTimer(), this._cancelOpenTimer();
		let n = this.activeItem;
		n && n.type === "submenu" && n.submenu && this._startOpenTimer();
	}
	_evtPointerEnter(e) {
		if (!A.isTouchEvent(e)) for (let e = this._parentMenu; e; e = e._parentMenu) e._cancelOpenTimer(), e._cancelCloseTimer(), e.activeIndex = e._childIndex;
	}
	_evtPointerLeave(e) {
		if (A.isTouchEvent(e)) return;
		if (this._cancelOpenTimer(), !this._childMenu) {
			this.activeIndex = -1;
			return;
		}
		let { clientX: t, clientY: n } = e;
		x.hitTest(this._childMenu.node, t, n) ? this._cancelCloseTimer() : (this.activeIndex = -1, this._startCloseTimer());
	}
	_evtPointerDown(e) {
		this._pendingTouchActivation = !1, this._parentMenu || (ht.hitTestMenus(this, e.clientX, e.clientY) ? (A.isTouchEvent(e) || e.preventDefault(), e.stopPropagation()) : this.close());
	}
	_openChildMenu(t = !1) {
		let n = this.activeItem;
		if (!n || n.type !== "submenu" || !n.submenu) {
			this._closeChildMenu();
			return;
		}
		let r = n.submenu;
		if (r === this._childMenu) return;
		e.saveWindowData(this.node.ownerDocument), this._closeChildMenu(), this._childMenu = r, this._childIndex = this._activeIndex, r._parentMenu = this, C.sendMessage(this, j.Msg.UpdateRequest);
		let i = this.contentNode.children[this._activeIndex];
		ht.openSubmenu(r, i), t && (r.activeIndex = -1, r.activateNextItem()), r.activate();
	}
	_activateItemFromEvent(e) {
		let t = y.findFirstIndex(this.contentNode.children, (t) => x.hitTest(t, e.clientX, e.clientY));
		return t !== -1 && (this.activeIndex = t, !0);
	}
	_closeChildMenu() {
		this._childMenu && this._childMenu.close();
	}
	_startOpenTimer() {
		this._openTimerID === 0 && (this._openTimerID = window.setTimeout(() => {
			this._openTimerID = 0, this._openChildMenu();
		}, ht.TIMER_DELAY));
	}
	_startCloseTimer() {
		this._closeTimerID === 0 && (this._closeTimerID = window.setTimeout(() => {
			this._closeTimerID = 0, this._closeChildMenu();
		}, ht.TIMER_DELAY));
	}
	_cancelOpenTimer() {
		this._openTimerID !== 0 && (clearTimeout(this._openTimerID), this._openTimerID = 0);
	}
	_cancelCloseTimer() {
		this._closeTimerID !== 0 && (clearTimeout(this._closeTimerID), this._closeTimerID = 0);
	}
	static saveWindowData(e = document) {
		ht.saveWindowData(e);
	}
};
(function(e) {
	class t {
		renderItem(e) {
			let t = this.createItemClass(e), n = this.createItemDataset(e), r = this.createItemARIA(e);
			return O.li({
				className: t,
				dataset: n,
				tabindex: "0",
				onfocus: e.onfocus,
				...r
			}, this.renderIcon(e), this.renderLabel(e), this.renderShortcut(e), this.renderSubmenu(e));
		}
		renderIcon(e) {
			let t = this.createIconClass(e);
			return O.div({ className: t }, e.item.icon, e.item.iconLabel);
		}
		renderLabel(e) {
			let t = this.formatLabel(e);
			return O.div({ className: "lm-Menu-itemLabel" }, t);
		}
		renderShortcut(e) {
			let t = this.formatShortcut(e);
			return O.div({ className: "lm-Menu-itemShortcut" }, t);
		}
		renderSubmenu(e) {
			return O.div({ className: "lm-Menu-itemSubmenuIcon" });
		}
		createItemClass(e) {
			let t = "lm-Menu-item";
			e.item.isEnabled || (t += " lm-mod-disabled"), e.item.isToggled && (t += " lm-mod-toggled"), e.item.isVisible || (t += " lm-mod-hidden"), e.active && (t += " lm-mod-active"), e.collapsed && (t += " lm-mod-collapsed");
			let n = e.item.className;
			return n && (t += ` ${n}`), t;
		}
		createItemDataset(e) {
			let t, { type: n, command: r, dataset: i } = e.item;
			return t = n === "command" ? {
				...i,
				type: n,
				command: r
			} : {
				...i,
				type: n
			}, t;
		}
		createIconClass(e) {
			let t = "lm-Menu-itemIcon", n = e.item.iconClass;
			return n ? `${t} ${n}` : t;
		}
		createItemARIA(e) {
			let t = {};
			switch (e.item.type) {
				case "separator":
					t.role = "presentation";
					break;
				case "submenu":
					t["aria-haspopup"] = "true", e.item.isEnabled || (t["aria-disabled"] = "true");
					break;
				default: e.item.isEnabled || (t["aria-disabled"] = "true"), e.item.isToggleable || e.item.isToggled ? (t.role = "menuitemcheckbox", t["aria-checked"] = `${e.item.isToggled}`) : t.role = "menuitem";
			}
			return t;
		}
		formatLabel(e) {
			let { label: t, mnemonic: n } = e.item;
			if (n < 0 || n >= t.length) return t;
			let r = t.slice(0, n), i = t.slice(n + 1), a = t[n];
			return [
				r,
				O.span({ className: "lm-Menu-itemMnemonic" }, a),
				i
			];
		}
		formatShortcut(e) {
			let t = e.item.keyBinding;
			return t ? Fe.formatKeystroke(t.keys) : null;
		}
	}
	e.Renderer = t, e.defaultRenderer = new t();
})(mt ||= {});
var ht;
(function(e) {
	e.TIMER_DELAY = 300, e.SUBMENU_OVERLAP = 3;
	let t = null, n = null, r = 0;
	function i(e) {
		return r > 0 && (r--, n === e) ? t : o(e);
	}
	e.saveWindowData = function(e) {
		t = o(e), n = e, r++;
	}, e.createNode = function() {
		let e = document.createElement("div"), t = document.createElement("ul");
		return t.className = "lm-Menu-content", e.appendChild(t), t.setAttribute("role", "menu"), e.tabIndex = 0, e;
	};
	function a(e) {
		return e.type !== "separator" && e.isEnabled && e.isVisible;
	}
	e.canActivate = a, e.createItem = function(e, t) {
		return new s(e.commands, t);
	}, e.hitTestMenus = function(e, t, n) {
		for (let r = e; r; r = r.childMenu) if (x.hitTest(r.node, t, n)) return !0;
		return !1;
	}, e.computeCollapsed = function(e) {
		let t = Array(e.length);
		y.fill(t, !1);
		let n = 0, r = e.length;
		for (; n < r; ++n) {
			let r = e[n];
			if (r.isVisible) {
				if (r.type !== "separator") break;
				t[n] = !0;
			}
		}
		let i = r - 1;
		for (; i >= 0; --i) {
			let n = e[i];
			if (n.isVisible) {
				if (n.type !== "separator") break;
				t[i] = !0;
			}
		}
		let a = !1;
		for (; ++n < i;) {
			let r = e[n];
			r.isVisible && (r.type === "separator" ? a ? t[n] = !0 : a = !0 : a = !1);
		}
		return t;
	};
	function o(e) {
		let t = e.defaultView ?? window;
		return {
			pageXOffset: t.pageXOffset,
			pageYOffset: t.pageYOffset,
			clientWidth: e.documentElement.clientWidth,
			clientHeight: e.documentElement.clientHeight
		};
	}
	e.openRootMenu = function(e, t, n, r, a, o, s, c) {
		let l = i(s?.ownerDocument ?? document), u = l.pageXOffset, d = l.pageYOffset, f = l.clientWidth, p = l.clientHeight;
		C.sendMessage(e, j.Msg.UpdateRequest);
		let m = p - (a ? n : 0), h = e.node, g = h.style;
		g.opacity = "0", g.maxHeight = `${m}px`, j.attach(e, s || document.body, c);
		let { width: _, height: v } = h.getBoundingClientRect();
		o === "right" && (t -= _), !r && t + _ > u + f && (t = u + f - _), !a && n + v > d + p && (n > d + p ? n = d + p - v : n -= v), g.transform = `translate(${Math.max(0, t)}px, ${Math.max(0, n)}px`, g.opacity = "1";
	}, e.openSubmenu = function(t, n) {
		let r = n.ownerDocument, a = i(r), o = a.pageXOffset, s = a.pageYOffset, c = a.clientWidth, l = a.clientHeight;
		C.sendMessage(t, j.Msg.UpdateRequest);
		let u = l, d = t.node, f = d.style;
		f.opacity = "0", f.maxHeight = `${u}px`, j.attach(t, r.body);
		let { width: p, height: m } = d.getBoundingClientRect(), h = x.boxSizing(t.node), g = n.getBoundingClientRect(), _ = g.right - e.SUBMENU_OVERLAP;
		_ + p > o + c && (_ = g.left + e.SUBMENU_OVERLAP - p);
		let v = g.top - h.borderTop - h.paddingTop;
		v + m > s + l && (v = g.bottom + h.borderBottom + h.paddingBottom - m), f.transform = `translate(${Math.max(0, _)}px, ${Math.max(0, v)}px`, f.opacity = "1";
	}, e.findMnemonic = function(e, t, n) {
		let r = -1, i = -1, o = !1, s = t.toUpperCase();
		for (let t = 0, c = e.length; t < c; ++t) {
			let l = (t + n) % c, u = e[l];
			if (!a(u)) continue;
			let d = u.label;
			if (d.length === 0) continue;
			let f = u.mnemonic;
			f >= 0 && f < d.length ? d[f].toUpperCase() === s && (r === -1 ? r = l : o = !0) : i === -1 && d[0].toUpperCase() === s && (i = l);
		}
		return {
			index: r,
			multiple: o,
			auto: i
		};
	};
	class s {
		constructor(e, t) {
			this._commands = e, this.type = t.type || "command", this.command = t.command || "", this.args = t.args || b.JSONExt.emptyObject, this.submenu = t.submenu || null;
		}
		get label() {
			return this.type === "command" ? this._commands.label(this.command, this.args) : this.type === "submenu" && this.submenu ? this.submenu.title.label : "";
		}
		get mnemonic() {
			return this.type === "command" ? this._commands.mnemonic(this.command, this.args) : this.type === "submenu" && this.submenu ? this.submenu.title.mnemonic : -1;
		}
		get icon() {
			if (this.type === "command") return this._commands.icon(this.command, this.args);
			if (this.type === "submenu" && this.submenu) return this.submenu.title.icon;
		}
		get iconClass() {
			return this.type === "command" ? this._commands.iconClass(this.command, this.args) : this.type === "submenu" && this.submenu ? this.submenu.title.iconClass : "";
		}
		get iconLabel() {
			return this.type === "command" ? this._commands.iconLabel(this.command, this.args) : this.type === "submenu" && this.submenu ? this.submenu.title.iconLabel : "";
		}
		get caption() {
			return this.type === "command" ? this._commands.caption(this.command, this.args) : this.type === "submenu" && this.submenu ? this.submenu.title.caption : "";
		}
		get className() {
			return this.type === "command" ? this._commands.className(this.command, this.args) : this.type === "submenu" && this.submenu ? this.submenu.title.className : "";
		}
		get dataset() {
			return this.type === "command" ? this._commands.dataset(this.command, this.args) : this.type === "submenu" && this.submenu ? this.submenu.title.dataset : {};
		}
		get isEnabled() {
			return this.type === "command" ? this._commands.isEnabled(this.command, this.args) : this.type !== "submenu" || this.submenu !== null;
		}
		get isToggled() {
			return this.type === "command" && this._commands.isToggled(this.command, this.args);
		}
		get isToggleable() {
			return this.type === "command" && this._commands.isToggleable(this.command, this.args);
		}
		get isVisible() {
			return this.type === "command" ? this._commands.isVisible(this.command, this.args) : this.type !== "submenu" || this.submenu !== null;
		}
		get keyBinding() {
			if (this.type === "command") {
				let { command: e, args: t } = this;
				return y.findLastValue(this._commands.keyBindings, (n) => n.command === e && b.JSONExt.deepEqual(n.args, t)) || null;
			}
			return null;
		}
	}
})(ht ||= {});
var gt;
(function(e) {
	e.createItem = function(e, n) {
		let r = t(e.selector), i = e.rank === void 0 ? 1e400 : e.rank;
		return {
			...e,
			selector: r,
			rank: i,
			id: n
		};
	}, e.matchItems = function(e, t, i, a) {
		let o = t.target;
		if (!o) return null;
		let s = t.currentTarget;
		if (!s || !s.contains(o) && (o = document.elementFromPoint(t.clientX, t.clientY), !o || !s.contains(o))) return null;
		let c = [], l = e.slice();
		for (; o !== null;) {
			let e = [];
			for (let t = 0, n = l.length; t < n; ++t) {
				let n = l[t];
				n && xe.matches(o, n.selector) && (e.push(n), l[t] = null);
			}
			if (e.length !== 0 && (i && e.sort(a ? r : n), c.push(...e)), o === s) break;
			o = o.parentElement;
		}
		return i || c.sort(a ? r : n), c;
	};
	function t(e) {
		if (e.indexOf(",") !== -1) throw Error(`Selector cannot contain commas: ${e}`);
		if (!xe.isValid(e)) throw Error(`Invalid selector: ${e}`);
		return e;
	}
	function n(e, t) {
		let n = e.rank, r = t.rank;
		return n === r ? e.id - t.id : n < r ? -1 : 1;
	}
	function r(e, t) {
		let r = xe.calculateSpecificity(e.selector), i = xe.calculateSpecificity(t.selector);
		return r === i ? n(e, t) : i - r;
	}
})(gt ||= {});
var _t = [
	"ArrowLeft",
	"ArrowUp",
	"ArrowRight",
	"ArrowDown",
	"Home",
	"End"
], vt = class e extends j {
	constructor(t = {}) {
		super({ node: N.createNode() }), this._currentIndex = -1, this._titles = [], this._titlesEditable = !1, this._previousTitle = null, this._dragData = null, this._tabSizeFrozen = !1, this._frozenTabWidths = null, this._unfreezeRunID = 0, this._unfreezeFallbackTimerID = 0, this._unfreezeTransitionListener = null, this._pendingTouchCloseRequest = null, this._addButtonEnabled = !1, this._tabMoved = new w(this), this._currentChanged = new w(this), this._addRequested = new w(this), this._tabCloseRequested = new w(this), this._tabDetachRequested = new w(this), this._tabActivateRequested = new w(this), this.addClass("lm-TabBar"), this.contentNode.setAttribute("role", "tablist"), this.setFlag(j.Flag.DisallowLayout), this._document = t.document || document, this.tabsMovable = t.tabsMovable || !1, this.titlesEditable = t.titlesEditable || !1, this.allowDeselect = t.allowDeselect || !1, this.addButtonEnabled = t.addButtonEnabled || !1, this.insertBehavior = t.insertBehavior || "select-tab-if-needed", this.name = t.name || "", this.orientation = t.orientation || "horizontal", this.removeBehavior = t.removeBehavior || "select-tab-after", this.renderer = t.renderer || e.defaultRenderer;
	}
	dispose() {
		this._releaseMouse(), this._titles.length = 0, this._previousTitle = null, super.dispose();
	}
	get currentChanged() {
		return this._currentChanged;
	}
	get tabMoved() {
		return this._tabMoved;
	}
	get tabActivateRequested() {
		return this._tabActivateRequested;
	}
	get addRequested() {
		return this._addRequested;
	}
	get tabCloseRequested() {
		return this._tabCloseRequested;
	}
	get tabDetachRequested() {
		return this._tabDetachRequested;
	}
	get document() {
		return this._document;
	}
	get titlesEditable() {
		return this._titlesEditable;
	}
	set titlesEditable(e) {
		this._titlesEditable = e;
	}
	get currentTitle() {
		return this._titles[this._currentIndex] || null;
	}
	set currentTitle(e) {
		this.currentIndex = e ? this._titles.indexOf(e) : -1;
	}
	get currentIndex() {
		return this._currentIndex;
	}
	set currentIndex(e) {
		if ((e < 0 || e >= this._titles.length) && (e = -1), this._currentIndex === e) return;
		let t = this._currentIndex, n = this._titles[t] || null, r = e, i = this._titles[r] || null;
		this._currentIndex = r, this._previousTitle = n, this.update(), this._currentChanged.emit({
			previousIndex: t,
			previousTitle: n,
			currentIndex: r,
			currentTitle: i
		});
	}
	get name() {
		return this._name;
	}
	set name(e) {
		this._name = e, e ? this.contentNode.setAttribute("aria-label", e) : this.contentNode.removeAttribute("aria-label");
	}
	get orientation() {
		return this._orientation;
	}
	set orientation(e) {
		this._orientation !== e && (this._releaseMouse(), this._orientation = e, this.dataset.orientation = e, this.contentNode.setAttribute("aria-orientation", e));
	}
	get addButtonEnabled() {
		return this._addButtonEnabled;
	}
	set addButtonEnabled(e) {
		this._addButtonEnabled !== e && (this._addButtonEnabled = e, e ? this.addButtonNode.classList.remove("lm-mod-hidden") : this.addButtonNode.classList.add("lm-mod-hidden"), this._updateTabIndex());
	}
	get titles() {
		return this._titles;
	}
	get contentNode() {
		return this.node.getElementsByClassName("lm-TabBar-content")[0];
	}
	get addButtonNode() {
		return this.node.getElementsByClassName("lm-TabBar-addButton")[0];
	}
	addTab(e) {
		return this.insertTab(this._titles.length, e);
	}
	insertTab(e, t) {
		this._releaseMouse();
		let n = N.asTitle(t), r = this._titles.indexOf(n), i = Math.max(0, Math.min(e, this._titles.length));
		return r === -1 ? (y.insert(this._titles, i, n), n.changed.connect(this._onTitleChanged, this), this.update(), this._adjustCurrentForInsert(i, n), n) : (i === this._titles.length && i--, r === i || (y.move(this._titles, r, i), this.update(), this._adjustCurrentForMove(r, i)), n);
	}
	removeTab(e) {
		this.removeTabAt(this._titles.indexOf(e));
	}
	removeTabAt(e) {
		let t = e >= 0 && e < this._titles.length;
		if (this._tabSizeFrozen) {
			if (t) {
				let t = this.contentNode.children;
				this._frozenTabWidths = [];
				for (let n = 0, r = t.length; n < r; ++n) n !== e && this._frozenTabWidths.push(t[n].offsetWidth);
			} else this._frozenTabWidths = null;
		}
		this._releaseMouse();
		let n = y.removeAt(this._titles, e);
		n && (n.changed.disconnect(this._onTitleChanged, this), n === this._previousTitle && (this._previousTitle = null), this.update(), this._adjustCurrentForRemove(e, n));
	}
	clearTabs() {
		if (this._titles.length === 0) return;
		this._releaseMouse();
		for (let e of this._titles) e.changed.disconnect(this._onTitleChanged, this);
		let e = this.currentIndex, t = this.currentTitle;
		this._currentIndex = -1, this._previousTitle = null, this._titles.length = 0, this.update(), e !== -1 && this._currentChanged.emit({
			previousIndex: e,
			previousTitle: t,
			currentIndex: -1,
			currentTitle: null
		});
	}
	releaseMouse() {
		this._releaseMouse();
	}
	handleEvent(e) {
		switch (e.type) {
			case "pointerdown":
				this._evtPointerDown(e);
				break;
			case "pointermove":
				this._evtPointerMove(e);
				break;
			case "pointerup":
				this._evtPointerUp(e);
				break;
			case "pointerleave":
				this._evtPointerLeave(e);
				break;
			case "click":
				this._evtClick(e);
				break;
			case "dblclick":
				this._evtDblClick(e);
				break;
			case "focusin":
				this._updateTabIndex(e.target);
				break;
			case "focusout":
				this._updateTabIndex(e.relatedTarget);
				break;
			case "keydown":
				e.eventPhase === Event.CAPTURING_PHASE ? this._evtKeyDownCapturing(e) : this._evtKeyDown(e);
				break;
			case "contextmenu": e.preventDefault(), e.stopPropagation();
		}
	}
	onBeforeAttach(e) {
		this.node.addEventListener("pointerdown", this), this.node.addEventListener("pointerleave", this), this.node.addEventListener("click", this), this.node.addEventListener("dblclick", this), this.node.addEventListener("focusin", this), this.node.addEventListener("focusout", this), this.node.addEventListener("keydown", this);
	}
	onAfterDetach(e) {
		this.node.removeEventListener("pointerdown", this), this.node.removeEventListener("pointerleave", this), this.node.removeEventListener("click", this), this.node.removeEventListener("dblclick", this), this.node.removeEventListener("focusin", this), this.node.removeEventListener("focusout", this), this.node.removeEventListener("keydown", this), this._clearUnfreezeTransitionState(), this._clearTabSizeFreezeState(), this._pendingTouchCloseRequest = null, this._releaseMouse();
	}
	onUpdateRequest(e) {
		let t = this._titles, n = this.renderer, r = this.currentTitle, i = Array(t.length), a = Math.max(0, this._currentIndex);
		for (let e = 0, o = t.length; e < o; ++e) {
			let s = t[e], c = s === r, l = c ? o : o - e - 1, u = a === e ? 0 : -1;
			i[e] = n.renderTab({
				title: s,
				current: c,
				zIndex: l,
				tabIndex: u
			});
		}
		if (ze.render(i, this.contentNode), this._updateTabIndex(), this._tabSizeFrozen) {
			let e = this.contentNode.children;
			if (this._frozenTabWidths && this._frozenTabWidths.length === e.length) {
				for (let t = 0, n = e.length; t < n; ++t) this._setFrozenTabSize(e[t], this._frozenTabWidths[t]);
				this._frozenTabWidths = null;
			} else {
				this._frozenTabWidths = null;
				for (let t = 0, n = e.length; t < n; ++t) {
					let n = e[t];
					this._setFrozenTabSize(n, n.offsetWidth);
				}
			}
		}
	}
	_updateTabIndex(e = this._document.activeElement) {
		let t = this.contentNode.children, n = e instanceof Node ? e : null, r = this._addButtonEnabled && this.addButtonNode.contains(n), i = y.findFirstIndex(t, (e) => e.contains(n)), a = r ? -1 : i >= 0 ? i : Math.max(0, this._currentIndex);
		for (let e = 0; e < t.length; ++e) t[e].setAttribute("tabindex", e === a ? "0" : "-1");
		this.addButtonNode.setAttribute("tabindex", this._addButtonEnabled && (r || t.length === 0) ? "0" : "-1");
	}
	_evtDblClick(e) {
		if (!this.titlesEditable) return;
		let t = this.contentNode.children, n = y.findFirstIndex(t, (t) => x.hitTest(t, e.clientX, e.clientY));
		if (n === -1) return;
		let r = this.titles[n], i = t[n].querySelector(".lm-TabBar-tabLabel");
		if (i && i.contains(e.target)) {
			let e = r.label || "", t = i.innerHTML;
			i.innerHTML = "";
			let n = document.createElement("input");
			n.classList.add("lm-TabBar-tabInput"), n.value = e, i.appendChild(n);
			let a = () => {
				n.removeEventListener("blur", a), i.innerHTML = t, this.node.addEventListener("keydown", this);
			};
			n.addEventListener("dblclick", (e) => e.stopPropagation()), n.addEventListener("blur", a), n.addEventListener("keydown", (e) => {
				e.key === "Enter" ? (n.value !== "" && (r.label = r.caption = n.value), a()) : e.key === "Escape" && a();
			}), this.node.removeEventListener("keydown", this), n.select(), n.focus(), i.children.length > 0 && i.children[0].focus();
		}
	}
	_evtKeyDownCapturing(e) {
		e.eventPhase === Event.CAPTURING_PHASE && (e.preventDefault(), e.stopPropagation(), e.key === "Escape" && this._releaseMouse());
	}
	_evtKeyDown(e) {
		var t;
		if (e.key !== "Tab" && e.eventPhase !== Event.CAPTURING_PHASE) {
			if (e.key === "Enter" || e.key === "Spacebar" || e.key === " ") {
				let t = document.activeElement;
				if (this.addButtonEnabled && this.addButtonNode.contains(t)) e.preventDefault(), e.stopPropagation(), this._addRequested.emit();
				else {
					let n = y.findFirstIndex(this.contentNode.children, (e) => e.contains(t));
					n >= 0 && (e.preventDefault(), e.stopPropagation(), this.currentIndex = n);
				}
			} else if (_t.includes(e.key)) {
				let n = [...this.contentNode.children];
				if (this.addButtonEnabled && n.push(this.addButtonNode), n.length <= 1) return;
				e.preventDefault(), e.stopPropagation();
				let r = n.indexOf(document.activeElement);
				r === -1 && (r = this._currentIndex);
				let i;
				e.key === "ArrowRight" && this._orientation === "horizontal" || e.key === "ArrowDown" && this._orientation === "vertical" ? i = n[r + 1] ?? n[0] : e.key === "ArrowLeft" && this._orientation === "horizontal" || e.key === "ArrowUp" && this._orientation === "vertical" ? i = n[r - 1] ?? n[n.length - 1] : e.key === "Home" ? i = n[0] : e.key === "End" && (i = n[n.length - 1]), i && ((t = n[r]) == null || t.setAttribute("tabindex", "-1"), i?.setAttribute("tabindex", "0"), i.focus());
			}
		}
	}
	_evtPointerDown(e) {
		if (this._pendingTouchCloseRequest = null, e.button !== 0 && e.button !== 1 || this._dragData || e.target.classList.contains("lm-TabBar-tabInput")) return;
		let t = this.addButtonEnabled && this.addButtonNode.contains(e.target), n = this.contentNode.children, r = y.findFirstIndex(n, (t) => x.hitTest(t, e.clientX, e.clientY));
		if (r === -1 && !t) return;
		let i = r === -1 ? null : n[r].querySelector(this.renderer.closeIconSelector), a = !!i && i.contains(e.target);
		a && A.isTouchEvent(e) || e.preventDefault(), e.stopPropagation(), this._dragData = {
			tab: n[r],
			index: r,
			pressX: e.clientX,
			pressY: e.clientY,
			tabPos: -1,
			tabSize: -1,
			tabPressPos: -1,
			targetIndex: -1,
			tabLayout: null,
			contentRect: null,
			override: null,
			dragActive: !1,
			dragAborted: !1,
			detachRequested: !1
		}, this.document.addEventListener("pointerup", this, !0), e.button === 1 || t || a || (this.tabsMovable && (this.document.addEventListener("pointermove", this, !0), this.document.addEventListener("keydown", this, !0), this.document.addEventListener("contextmenu", this, !0)), this.currentIndex = this.allowDeselect && this.currentIndex === r ? -1 : r, this.currentIndex !== -1 && this._tabActivateRequested.emit({
			index: this.currentIndex,
			title: this.currentTitle
		}));
	}
	_evtPointerMove(e) {
		let t = this._dragData;
		if (!t) return;
		e.preventDefault(), e.stopPropagation();
		let n = this.contentNode.children;
		if (t.dragActive || N.dragExceeded(t, e)) {
			if (!t.dragActive) {
				let e = t.tab.getBoundingClientRect();
				this._orientation === "horizontal" ? (t.tabPos = t.tab.offsetLeft, t.tabSize = e.width, t.tabPressPos = t.pressX - e.left) : (t.tabPos = t.tab.offsetTop, t.tabSize = e.height, t.tabPressPos = t.pressY - e.top), t.tabPressOffset = {
					x: t.pressX - e.left,
					y: t.pressY - e.top
				}, t.tabLayout = N.snapTabLayout(n, this._orientation), t.contentRect = this.contentNode.getBoundingClientRect(), t.override = E.overrideCursor("default"), t.tab.classList.add("lm-mod-dragging"), this.addClass("lm-mod-dragging"), t.dragActive = !0;
			}
			if (!t.detachRequested && N.detachExceeded(t, e)) {
				t.detachRequested = !0;
				let r = t.index, i = e.clientX, a = e.clientY, o = n[r], s = this._titles[r];
				if (this._tabDetachRequested.emit({
					index: r,
					title: s,
					tab: o,
					clientX: i,
					clientY: a,
					offset: t.tabPressOffset
				}), t.dragAborted) return;
			}
			N.layoutTabs(n, t, e, this._orientation);
		}
	}
	_evtPointerUp(e) {
		if (e.button !== 0 && e.button !== 1) return;
		let t = this._dragData;
		if (!t) return;
		let n = A.isTouchEvent(e);
		if (n || e.preventDefault(), e.stopPropagation(), this.document.removeEventListener("pointermove", this, !0), this.document.removeEventListener("pointerup", this, !0), this.document.removeEventListener("keydown", this, !0), this.document.removeEventListener("contextmenu", this, !0), !t.dragActive) {
			if (this._dragData = null, this.addButtonEnabled && this.addButtonNode.contains(e.target)) {
				this._addRequested.emit(void 0);
				return;
			}
			let r = this.contentNode.children, i = y.findFirstIndex(r, (t) => x.hitTest(t, e.clientX, e.clientY));
			if (i !== t.index) return;
			let a = this._titles[i];
			if (!a.closable) return;
			if (e.button === 1) {
				this._tabCloseRequested.emit({
					index: i,
					title: a
				});
				return;
			}
			let o = r[i].querySelector(this.renderer.closeIconSelector);
			if (o && o.contains(e.target)) {
				if (this._tabSizeFrozen = !0, n) {
					this._pendingTouchCloseRequest = {
						index: i,
						title: a
					};
					return;
				}
				this._tabCloseRequested.emit({
					index: i,
					title: a
				});
				return;
			}
			return;
		}
		if (e.button !== 0) return;
		N.finalizeTabPosition(t, this._orientation), t.tab.classList.remove("lm-mod-dragging");
		let r = N.parseTransitionDuration(t.tab);
		setTimeout(() => {
			if (t.dragAborted) return;
			this._dragData = null, N.resetTabPositions(this.contentNode.children, this._orientation), t.override.dispose(), this.removeClass("lm-mod-dragging");
			let e = t.index, n = t.targetIndex;
			n !== -1 && e !== n && (y.move(this._titles, e, n), this._adjustCurrentForMove(e, n), this._tabMoved.emit({
				fromIndex: e,
				toIndex: n,
				title: this._titles[n]
			}), C.sendMessage(this, j.Msg.UpdateRequest));
		}, r);
	}
	_releaseMouse() {
		let e = this._dragData;
		e && (this._dragData = null, this.document.removeEventListener("pointermove", this, !0), this.document.removeEventListener("pointerup", this, !0), this.document.removeEventListener("keydown", this, !0), this.document.removeEventListener("contextmenu", this, !0), e.dragAborted = !0, e.dragActive && (N.resetTabPositions(this.contentNode.children, this._orientation), e.override.dispose(), e.tab.classList.remove("lm-mod-dragging"), this.removeClass("lm-mod-dragging")));
	}
	_adjustCurrentForInsert(e, t) {
		let n = this.currentTitle, r = this._currentIndex, i = this.insertBehavior;
		i === "select-tab" || i === "select-tab-if-needed" && r === -1 ? (this._currentIndex = e, this._previousTitle = n, this._currentChanged.emit({
			previousIndex: r,
			previousTitle: n,
			currentIndex: e,
			currentTitle: t
		})) : r >= e && this._currentIndex++;
	}
	_evtClick(e) {
		let t = this._pendingTouchCloseRequest;
		if (!t) return;
		this._pendingTouchCloseRequest = null, e.preventDefault(), e.stopPropagation();
		let n = this.contentNode.children[t.index]?.querySelector(this.renderer.closeIconSelector);
		this._titles[t.index] !== t.title || !n || !n.contains(e.target) ? this._clearTabSizeFreezeState() : this._tabCloseRequested.emit(t);
	}
	_adjustCurrentForMove(e, t) {
		this._currentIndex === e ? this._currentIndex = t : this._currentIndex < e && this._currentIndex >= t ? this._currentIndex++ : this._currentIndex > e && this._currentIndex <= t && this._currentIndex--;
	}
	_adjustCurrentForRemove(e, t) {
		let n = this._currentIndex, r = this.removeBehavior;
		n === e ? this._titles.length === 0 ? (this._currentIndex = -1, this._currentChanged.emit({
			previousIndex: e,
			previousTitle: t,
			currentIndex: -1,
			currentTitle: null
		})) : r === "select-tab-after" ? (this._currentIndex = Math.min(e, this._titles.length - 1), this._currentChanged.emit({
			previousIndex: e,
			previousTitle: t,
			currentIndex: this._currentIndex,
			currentTitle: this.currentTitle
		})) : r === "select-tab-before" ? (this._currentIndex = Math.max(0, e - 1), this._currentChanged.emit({
			previousIndex: e,
			previousTitle: t,
			currentIndex: this._currentIndex,
			currentTitle: this.currentTitle
		})) : r === "select-previous-tab" ? (this._previousTitle ? (this._currentIndex = this._titles.indexOf(this._previousTitle), this._previousTitle = null) : this._currentIndex = Math.min(e, this._titles.length - 1), this._currentChanged.emit({
			previousIndex: e,
			previousTitle: t,
			currentIndex: this._currentIndex,
			currentTitle: this.currentTitle
		})) : (this._currentIndex = -1, this._currentChanged.emit({
			previousIndex: e,
			previousTitle: t,
			currentIndex: -1,
			currentTitle: null
		})) : n > e && this._currentIndex--;
	}
	_onTitleChanged(e) {
		this.update();
	}
	_evtPointerLeave(e) {
		if (!this._tabSizeFrozen) return;
		this._tabSizeFrozen = !1, this._frozenTabWidths = null, this._unfreezeRunID++;
		let t = this._unfreezeRunID;
		this._clearUnfreezeTransitionState(), this.addClass("lm-mod-unfreezing");
		let n = this.contentNode.children;
		for (let e = 0, t = n.length; e < t; ++e) {
			let t = n[e];
			t.style.width = "", t.style.flexBasis = "";
		}
		if (n.length === 0) this.removeClass("lm-mod-unfreezing");
		else {
			let e = (e) => {
				let n = e.propertyName;
				(n === "width" || n === "flex-basis") && this._finalizeUnfreezeRun(t);
			};
			this._unfreezeTransitionListener = e, this.node.addEventListener("transitionend", e), this.node.addEventListener("transitioncancel", e), this._unfreezeFallbackTimerID = window.setTimeout(() => {
				this._finalizeUnfreezeRun(t);
			}, 2e3);
		}
		this.update();
	}
	_setFrozenTabSize(e, t) {
		let n = `${t}px`;
		e.style.width = n, e.style.flexBasis = n;
	}
	_finalizeUnfreezeRun(e) {
		e === this._unfreezeRunID && (this._clearUnfreezeTransitionState(), this.removeClass("lm-mod-unfreezing"));
	}
	_clearUnfreezeTransitionState() {
		this._unfreezeTransitionListener &&= (this.node.removeEventListener("transitionend", this._unfreezeTransitionListener), this.node.removeEventListener("transitioncancel", this._unfreezeTransitionListener), null), this._unfreezeFallbackTimerID !== 0 && (clearTimeout(this._unfreezeFallbackTimerID), this._unfreezeFallbackTimerID = 0);
	}
	_clearTabSizeFreezeState() {
		this._tabSizeFrozen = !1, this._frozenTabWidths = null, this.removeClass("lm-mod-unfreezing");
		let e = this.contentNode.children;
		for (let t = 0, n = e.length; t < n; ++t) {
			let n = e[t];
			n.style.width = "", n.style.flexBasis = "";
		}
	}
};
(function(e) {
	class t {
		constructor() {
			this.closeIconSelector = ".lm-TabBar-tabCloseIcon", this._tabID = 0, this._tabKeys = /* @__PURE__ */ new WeakMap(), this._uuid = ++t._nInstance;
		}
		renderTab(e) {
			let t = e.title.caption, n = this.createTabKey(e), r = n, i = this.createTabStyle(e), a = this.createTabClass(e), o = this.createTabDataset(e), s = this.createTabARIA(e);
			return e.title.closable ? O.li({
				id: r,
				key: n,
				className: a,
				title: t,
				style: i,
				dataset: o,
				...s
			}, this.renderIcon(e), this.renderLabel(e), this.renderCloseIcon(e)) : O.li({
				id: r,
				key: n,
				className: a,
				title: t,
				style: i,
				dataset: o,
				...s
			}, this.renderIcon(e), this.renderLabel(e));
		}
		renderIcon(e) {
			let { title: t } = e, n = this.createIconClass(e);
			return O.div({ className: n }, t.icon, t.iconLabel);
		}
		renderLabel(e) {
			return O.div({ className: "lm-TabBar-tabLabel" }, e.title.label);
		}
		renderCloseIcon(e) {
			return O.div({ className: "lm-TabBar-tabCloseIcon" });
		}
		createTabKey(e) {
			let t = this._tabKeys.get(e.title);
			return t === void 0 && (t = `tab-key-${this._uuid}-${this._tabID++}`, this._tabKeys.set(e.title, t)), t;
		}
		createTabStyle(e) {
			return { zIndex: `${e.zIndex}` };
		}
		createTabClass(e) {
			let t = "lm-TabBar-tab";
			return e.title.className && (t += ` ${e.title.className}`), e.title.closable && (t += " lm-mod-closable"), e.current && (t += " lm-mod-current"), t;
		}
		createTabDataset(e) {
			return e.title.dataset;
		}
		createTabARIA(e) {
			return {
				role: "tab",
				"aria-selected": e.current.toString(),
				tabindex: `${e.tabIndex ?? "-1"}`
			};
		}
		createIconClass(e) {
			let t = "lm-TabBar-tabIcon", n = e.title.iconClass;
			return n ? `${t} ${n}` : t;
		}
	}
	t._nInstance = 0, e.Renderer = t, e.defaultRenderer = new t(), e.addButtonSelector = ".lm-TabBar-addButton";
})(vt ||= {});
var N;
(function(e) {
	e.DRAG_THRESHOLD = 5, e.DETACH_THRESHOLD = 20, e.createNode = function() {
		let e = document.createElement("div"), t = document.createElement("ul");
		t.setAttribute("role", "tablist"), t.className = "lm-TabBar-content", e.appendChild(t);
		let n = document.createElement("div");
		return n.className = "lm-TabBar-addButton lm-mod-hidden", n.setAttribute("tabindex", "-1"), n.setAttribute("role", "button"), e.appendChild(n), e;
	}, e.asTitle = function(e) {
		return e instanceof He ? e : new He(e);
	}, e.parseTransitionDuration = function(e) {
		let t = window.getComputedStyle(e);
		return 1e3 * (parseFloat(t.transitionDuration) || 0);
	}, e.snapTabLayout = function(e, t) {
		let n = Array(e.length);
		for (let r = 0, i = e.length; r < i; ++r) {
			let i = e[r], a = window.getComputedStyle(i);
			t === "horizontal" ? n[r] = {
				pos: i.offsetLeft,
				size: i.offsetWidth,
				margin: parseFloat(a.marginLeft) || 0
			} : n[r] = {
				pos: i.offsetTop,
				size: i.offsetHeight,
				margin: parseFloat(a.marginTop) || 0
			};
		}
		return n;
	}, e.dragExceeded = function(t, n) {
		let r = Math.abs(n.clientX - t.pressX), i = Math.abs(n.clientY - t.pressY);
		return r >= e.DRAG_THRESHOLD || i >= e.DRAG_THRESHOLD;
	}, e.detachExceeded = function(t, n) {
		let r = t.contentRect;
		return n.clientX < r.left - e.DETACH_THRESHOLD || n.clientX >= r.right + e.DETACH_THRESHOLD || n.clientY < r.top - e.DETACH_THRESHOLD || n.clientY >= r.bottom + e.DETACH_THRESHOLD;
	}, e.layoutTabs = function(e, t, n, r) {
		let i, a, o, s;
		r === "horizontal" ? (i = t.pressX, a = n.clientX - t.contentRect.left, o = n.clientX, s = t.contentRect.width) : (i = t.pressY, a = n.clientY - t.contentRect.top, o = n.clientY, s = t.contentRect.height);
		let c = t.index, l = a - t.tabPressPos, u = l + t.tabSize;
		for (let n = 0, a = e.length; n < a; ++n) {
			let a, d = t.tabLayout[n], f = d.pos + (d.size >> 1);
			if (n < t.index && l < f) a = `${t.tabSize + t.tabLayout[n + 1].margin}px`, c = Math.min(c, n);
			else if (n > t.index && u > f) a = `${-t.tabSize - d.margin}px`, c = Math.max(c, n);
			else if (n === t.index) {
				let e = o - i, n = s - (t.tabPos + t.tabSize);
				a = `${Math.max(-t.tabPos, Math.min(e, n))}px`;
			} else a = "";
			r === "horizontal" ? e[n].style.left = a : e[n].style.top = a;
		}
		t.targetIndex = c;
	}, e.finalizeTabPosition = function(e, t) {
		let n;
		n = t === "horizontal" ? e.contentRect.width : e.contentRect.height;
		let r;
		if (e.targetIndex === e.index) r = 0;
		else if (e.targetIndex > e.index) {
			let t = e.tabLayout[e.targetIndex];
			r = t.pos + t.size - e.tabSize - e.tabPos;
		} else r = e.tabLayout[e.targetIndex].pos - e.tabPos;
		let i = n - (e.tabPos + e.tabSize), a = Math.max(-e.tabPos, Math.min(r, i));
		t === "horizontal" ? e.tab.style.left = `${a}px` : e.tab.style.top = `${a}px`;
	}, e.resetTabPositions = function(e, t) {
		for (let n of e) t === "horizontal" ? n.style.left = "" : n.style.top = "";
	};
})(N ||= {});
var yt = class extends Ge {
	constructor(e) {
		super(), this._spacing = 4, this._dirty = !1, this._root = null, this._box = null, this._items = /* @__PURE__ */ new Map(), this.renderer = e.renderer, e.spacing !== void 0 && (this._spacing = A.clampDimension(e.spacing)), this._document = e.document || document, this._hiddenMode = e.hiddenMode === void 0 ? j.HiddenMode.Display : e.hiddenMode;
	}
	dispose() {
		let e = Array.from(this);
		this._items.forEach((e) => {
			e.dispose();
		}), this._box = null, this._root = null, this._items.clear();
		for (let t of e) t.dispose();
		super.dispose();
	}
	get hiddenMode() {
		return this._hiddenMode;
	}
	set hiddenMode(e) {
		if (this._hiddenMode !== e) {
			this._hiddenMode = e;
			for (let e of this.tabBars()) this._applyHiddenMode(e);
		}
	}
	get spacing() {
		return this._spacing;
	}
	set spacing(e) {
		e = A.clampDimension(e), this._spacing !== e && (this._spacing = e, this.parent && this.parent.fit());
	}
	get isEmpty() {
		return this._root === null;
	}
	[Symbol.iterator]() {
		return this._root ? this._root.iterAllWidgets() : d();
	}
	widgets() {
		return this._root ? this._root.iterUserWidgets() : d();
	}
	selectedWidgets() {
		return this._root ? this._root.iterSelectedWidgets() : d();
	}
	tabBars() {
		return this._root ? this._root.iterTabBars() : d();
	}
	handles() {
		return this._root ? this._root.iterHandles() : d();
	}
	moveHandle(e, t, n) {
		let r = e.classList.contains("lm-mod-hidden");
		if (!this._root || r) return;
		let i = this._root.findSplitNode(e);
		if (!i) return;
		let a;
		a = i.node.orientation === "horizontal" ? t - e.offsetLeft : n - e.offsetTop, a !== 0 && (i.node.holdSizes(), k.adjust(i.node.sizers, i.index, a), this.parent && this.parent.update());
	}
	saveLayout() {
		return this._root ? (this._root.holdAllSizes(), { main: this._root.createConfig() }) : { main: null };
	}
	restoreLayout(e) {
		let t = /* @__PURE__ */ new Set(), n;
		n = e.main ? P.normalizeAreaConfig(e.main, t) : null;
		let r = this.widgets(), i = this.tabBars(), a = this.handles();
		this._root = null;
		for (let e of r) t.has(e) || (e.parent = null);
		for (let e of i) e.dispose();
		for (let e of a) e.parentNode && e.parentNode.removeChild(e);
		for (let e of t) e.parent = this.parent;
		this._root = n ? P.realizeAreaConfig(n, {
			createTabBar: (e) => this._createTabBar(),
			createHandle: () => this._createHandle()
		}, this._document) : null;
		for (let e of this.tabBars()) this._applyHiddenMode(e);
		this.parent && (t.forEach((e) => {
			this.attachWidget(e);
		}), this.parent.fit());
	}
	addWidget(e, t = {}) {
		let n = t.ref || null, r = t.mode || "tab-after", i = null;
		if (this._root && n && (i = this._root.findTabNode(n)), n && !i) throw Error("Reference widget is not in the layout.");
		switch (e.parent = this.parent, r) {
			case "tab-after":
				this._insertTab(e, n, i, !0);
				break;
			case "tab-before":
				this._insertTab(e, n, i, !1);
				break;
			case "split-top":
				this._insertSplit(e, n, i, "vertical", !1);
				break;
			case "split-left":
				this._insertSplit(e, n, i, "horizontal", !1);
				break;
			case "split-right":
				this._insertSplit(e, n, i, "horizontal", !0);
				break;
			case "split-bottom":
				this._insertSplit(e, n, i, "vertical", !0);
				break;
			case "merge-top":
				this._insertSplit(e, n, i, "vertical", !1, !0);
				break;
			case "merge-left":
				this._insertSplit(e, n, i, "horizontal", !1, !0);
				break;
			case "merge-right":
				this._insertSplit(e, n, i, "horizontal", !0, !0);
				break;
			case "merge-bottom": this._insertSplit(e, n, i, "vertical", !0, !0);
		}
		this.parent && (this.attachWidget(e), this.parent.fit());
	}
	removeWidget(e) {
		this._removeWidget(e), this.parent && (this.detachWidget(e), this.parent.fit());
	}
	hitTestTabAreas(e, t) {
		if (!this._root || !this.parent || !this.parent.isVisible) return null;
		this._box ||= x.boxSizing(this.parent.node);
		let n = this.parent.node.getBoundingClientRect(), r = e - n.left - this._box.borderLeft, i = t - n.top - this._box.borderTop, a = this._root.hitTestTabNodes(r, i);
		if (!a) return null;
		let { tabBar: o, top: s, left: c, width: l, height: u } = a, d = this._box.borderLeft + this._box.borderRight, f = this._box.borderTop + this._box.borderBottom;
		return {
			tabBar: o,
			x: r,
			y: i,
			top: s,
			left: c,
			right: n.width - d - (c + l),
			bottom: n.height - f - (s + u),
			width: l,
			height: u
		};
	}
	init() {
		super.init();
		for (let e of this) this.attachWidget(e);
		for (let e of this.handles()) this.parent.node.appendChild(e);
		this.parent.fit();
	}
	attachWidget(e) {
		this.parent.node !== e.node.parentNode && (this._items.set(e, new Ke(e)), this.parent.isAttached && C.sendMessage(e, j.Msg.BeforeAttach), this.parent.node.appendChild(e.node), this.parent.isAttached && C.sendMessage(e, j.Msg.AfterAttach));
	}
	detachWidget(e) {
		if (this.parent.node !== e.node.parentNode) return;
		this.parent.isAttached && C.sendMessage(e, j.Msg.BeforeDetach), this.parent.node.removeChild(e.node), this.parent.isAttached && C.sendMessage(e, j.Msg.AfterDetach);
		let t = this._items.get(e);
		t && (this._items.delete(e), t.dispose());
	}
	onBeforeShow(e) {
		super.onBeforeShow(e), this.parent.update();
	}
	onBeforeAttach(e) {
		super.onBeforeAttach(e), this.parent.fit();
	}
	onChildShown(e) {
		this.parent.fit();
	}
	onChildHidden(e) {
		this.parent.fit();
	}
	onResize(e) {
		this.parent.isVisible && this._update(e.width, e.height);
	}
	onUpdateRequest(e) {
		this.parent.isVisible && this._update(-1, -1);
	}
	onFitRequest(e) {
		this.parent.isAttached && this._fit();
	}
	_removeWidget(e) {
		if (!this._root) return;
		let t = this._root.findTabNode(e);
		if (!t) return;
		if (P.removeAria(e), t.tabBar.titles.length > 1) {
			if (t.tabBar.removeTab(e.title), this._hiddenMode === j.HiddenMode.Scale && t.tabBar.titles.length == 1) {
				let e = t.tabBar.titles[0].owner;
				e.hiddenMode = j.HiddenMode.Display;
			}
			return;
		}
		if (t.tabBar.dispose(), this._root === t) {
			this._root = null;
			return;
		}
		this._root.holdAllSizes();
		let n = t.parent;
		t.parent = null;
		let r = y.removeFirstOf(n.children, t), i = y.removeAt(n.handles, r);
		if (y.removeAt(n.sizers, r), i.parentNode && i.parentNode.removeChild(i), n.children.length > 1) {
			n.syncHandles();
			return;
		}
		let a = n.parent;
		n.parent = null;
		let o = n.children[0], s = n.handles[0];
		if (n.children.length = 0, n.handles.length = 0, n.sizers.length = 0, s.parentNode && s.parentNode.removeChild(s), this._root === n) {
			o.parent = null, this._root = o;
			return;
		}
		let c = a, l = c.children.indexOf(n);
		if (o instanceof P.TabLayoutNode) {
			o.parent = c, c.children[l] = o;
			return;
		}
		let u = y.removeAt(c.handles, l);
		y.removeAt(c.children, l), y.removeAt(c.sizers, l), u.parentNode && u.parentNode.removeChild(u);
		for (let e = 0, t = o.children.length; e < t; ++e) {
			let t = o.children[e], n = o.handles[e], r = o.sizers[e];
			y.insert(c.children, l + e, t), y.insert(c.handles, l + e, n), y.insert(c.sizers, l + e, r), t.parent = c;
		}
		o.children.length = 0, o.handles.length = 0, o.sizers.length = 0, o.parent = null, c.syncHandles();
	}
	_createTabNode(e) {
		let t = new P.TabLayoutNode(this._createTabBar());
		return t.tabBar.addTab(e.title), P.addAria(e, t.tabBar), this._applyHiddenMode(t.tabBar), t;
	}
	_applyHiddenMode(e) {
		let t = this._hiddenMode === j.HiddenMode.Scale && e.titles.length === 1 ? j.HiddenMode.Display : this._hiddenMode;
		for (let n of e.titles) n.owner.hiddenMode = t;
	}
	_insertTab(e, t, n, r) {
		if (e === t) return;
		if (!this._root) {
			this._root = this._createTabNode(e);
			return;
		}
		n ||= this._root.findFirstTabNode(), n.tabBar.titles.indexOf(e.title) === -1 && (this._removeWidget(e), e.hide());
		let i;
		if (i = t ? n.tabBar.titles.indexOf(t.title) : n.tabBar.currentIndex, this._hiddenMode === j.HiddenMode.Scale) {
			if (n.tabBar.titles.length === 0) e.hiddenMode = j.HiddenMode.Display;
			else if (n.tabBar.titles.length == 1) {
				let t = n.tabBar.titles[0].owner;
				t.hiddenMode = j.HiddenMode.Scale, e.hiddenMode = j.HiddenMode.Scale;
			} else e.hiddenMode = j.HiddenMode.Scale;
		} else e.hiddenMode = this._hiddenMode;
		n.tabBar.insertTab(i + +!!r, e.title), P.addAria(e, n.tabBar);
	}
	_insertSplit(e, t, n, r, i, a = !1) {
		if (e === t && n && n.tabBar.titles.length === 1) return;
		if (this._removeWidget(e), !this._root) {
			this._root = this._createTabNode(e);
			return;
		}
		if (!n || !n.parent) {
			let t = this._splitRoot(r), a = i ? t.children.length : 0;
			t.normalizeSizes();
			let o = P.createSizer(n ? 1 : P.GOLDEN_RATIO), s = this._createTabNode(e);
			y.insert(t.children, a, s), y.insert(t.sizers, a, o), y.insert(t.handles, a, this._createHandle()), s.parent = t, t.normalizeSizes(), t.syncHandles();
			return;
		}
		let o = n.parent;
		if (o.orientation === r) {
			let t = o.children.indexOf(n);
			if (a) {
				let n = t + (i ? 1 : -1), r = o.children[n];
				if (r instanceof P.TabLayoutNode) {
					this._insertTab(e, null, r, !0), ++r.tabBar.currentIndex;
					return;
				}
			}
			o.normalizeSizes();
			let r = o.sizers[t].sizeHint /= 2, s = t + +!!i, c = this._createTabNode(e);
			y.insert(o.children, s, c), y.insert(o.sizers, s, P.createSizer(r)), y.insert(o.handles, s, this._createHandle()), c.parent = o, o.syncHandles();
			return;
		}
		let s = y.removeFirstOf(o.children, n), c = new P.SplitLayoutNode(r);
		c.normalized = !0, c.children.push(n), c.sizers.push(P.createSizer(.5)), c.handles.push(this._createHandle()), n.parent = c;
		let l = +!!i, u = this._createTabNode(e);
		y.insert(c.children, l, u), y.insert(c.sizers, l, P.createSizer(.5)), y.insert(c.handles, l, this._createHandle()), u.parent = c, c.syncHandles(), y.insert(o.children, s, c), c.parent = o;
	}
	_splitRoot(e) {
		let t = this._root;
		if (t instanceof P.SplitLayoutNode && t.orientation === e) return t;
		let n = this._root = new P.SplitLayoutNode(e);
		return t && (n.children.push(t), n.sizers.push(P.createSizer(0)), n.handles.push(this._createHandle()), t.parent = n), n;
	}
	_fit() {
		let e = 0, t = 0;
		if (this._root) {
			let n = this._root.fit(this._spacing, this._items);
			e = n.minWidth, t = n.minHeight;
		}
		let n = this._box = x.boxSizing(this.parent.node);
		e += n.horizontalSum, t += n.verticalSum;
		let r = this.parent.node.style;
		r.minWidth = `${e}px`, r.minHeight = `${t}px`, this._dirty = !0, this.parent.parent && C.sendMessage(this.parent.parent, j.Msg.FitRequest), this._dirty && C.sendMessage(this.parent, j.Msg.UpdateRequest);
	}
	_update(e, t) {
		if (this._dirty = !1, !this._root) return;
		e < 0 && (e = this.parent.node.offsetWidth), t < 0 && (t = this.parent.node.offsetHeight), this._box ||= x.boxSizing(this.parent.node);
		let n = this._box.paddingTop, r = this._box.paddingLeft, i = e - this._box.horizontalSum, a = t - this._box.verticalSum;
		this._root.update(n, r, i, a, this._spacing, this._items);
	}
	_createTabBar() {
		let e = this.renderer.createTabBar(this._document);
		return e.orientation = "horizontal", this.parent && this.attachWidget(e), e;
	}
	_createHandle() {
		let e = this.renderer.createHandle(), t = e.style;
		return t.position = "absolute", t.contain = "size layout style", t.top = "0", t.left = "0", t.width = "0", t.height = "0", this.parent && this.parent.node.appendChild(e), e;
	}
}, P;
(function(e) {
	e.GOLDEN_RATIO = .618;
	function t(e) {
		let t = new Ve();
		return t.sizeHint = e, t.size = e, t;
	}
	e.createSizer = t;
	function n(e, t) {
		let n;
		return n = e.type === "tab-area" ? o(e, t) : s(e, t), n;
	}
	e.normalizeAreaConfig = n;
	function r(e, t, n) {
		let r;
		return r = e.type === "tab-area" ? c(e, t, n) : l(e, t, n), r;
	}
	e.realizeAreaConfig = r;
	class i {
		constructor(e) {
			this.parent = null, this._top = 0, this._left = 0, this._width = 0, this._height = 0;
			let t = new Ve(), n = new Ve();
			t.stretch = 0, n.stretch = 1, this.tabBar = e, this.sizers = [t, n];
		}
		get top() {
			return this._top;
		}
		get left() {
			return this._left;
		}
		get width() {
			return this._width;
		}
		get height() {
			return this._height;
		}
		*iterAllWidgets() {
			yield this.tabBar, yield* this.iterUserWidgets();
		}
		*iterUserWidgets() {
			for (let e of this.tabBar.titles) yield e.owner;
		}
		*iterSelectedWidgets() {
			let e = this.tabBar.currentTitle;
			e && (yield e.owner);
		}
		*iterTabBars() {
			yield this.tabBar;
		}
		*iterHandles() {}
		findTabNode(e) {
			return this.tabBar.titles.indexOf(e.title) === -1 ? null : this;
		}
		findSplitNode(e) {
			return null;
		}
		findFirstTabNode() {
			return this;
		}
		hitTestTabNodes(e, t) {
			return e < this._left || e >= this._left + this._width || t < this._top || t >= this._top + this._height ? null : this;
		}
		createConfig() {
			return {
				type: "tab-area",
				widgets: this.tabBar.titles.map((e) => e.owner),
				currentIndex: this.tabBar.currentIndex
			};
		}
		holdAllSizes() {}
		fit(e, t) {
			let n = 0, r = 0, i = t.get(this.tabBar), a = this.tabBar.currentTitle, o = a ? t.get(a.owner) : void 0, [s, c] = this.sizers;
			return i && i.fit(), o && o.fit(), i && !i.isHidden ? (n = Math.max(n, i.minWidth), r += i.minHeight, s.minSize = i.minHeight, s.maxSize = i.maxHeight) : (s.minSize = 0, s.maxSize = 0), o && !o.isHidden ? (n = Math.max(n, o.minWidth), r += o.minHeight, c.minSize = o.minHeight, c.maxSize = 1e400) : (c.minSize = 0, c.maxSize = 1e400), {
				minWidth: n,
				minHeight: r,
				maxWidth: 1e400,
				maxHeight: 1e400
			};
		}
		update(e, t, n, r, i, a) {
			this._top = t, this._left = e, this._width = n, this._height = r;
			let o = a.get(this.tabBar), s = this.tabBar.currentTitle, c = s ? a.get(s.owner) : void 0;
			if (k.calc(this.sizers, r), o && !o.isHidden) {
				let r = this.sizers[0].size;
				o.update(e, t, n, r), t += r;
			}
			if (c && !c.isHidden) {
				let r = this.sizers[1].size;
				c.update(e, t, n, r);
			}
		}
	}
	e.TabLayoutNode = i;
	class a {
		constructor(e) {
			this.parent = null, this.normalized = !1, this.children = [], this.sizers = [], this.handles = [], this.orientation = e;
		}
		*iterAllWidgets() {
			for (let e of this.children) yield* e.iterAllWidgets();
		}
		*iterUserWidgets() {
			for (let e of this.children) yield* e.iterUserWidgets();
		}
		*iterSelectedWidgets() {
			for (let e of this.children) yield* e.iterSelectedWidgets();
		}
		*iterTabBars() {
			for (let e of this.children) yield* e.iterTabBars();
		}
		*iterHandles() {
			yield* this.handles;
			for (let e of this.children) yield* e.iterHandles();
		}
		findTabNode(e) {
			for (let t = 0, n = this.children.length; t < n; ++t) {
				let n = this.children[t].findTabNode(e);
				if (n) return n;
			}
			return null;
		}
		findSplitNode(e) {
			let t = this.handles.indexOf(e);
			if (t !== -1) return {
				index: t,
				node: this
			};
			for (let t = 0, n = this.children.length; t < n; ++t) {
				let n = this.children[t].findSplitNode(e);
				if (n) return n;
			}
			return null;
		}
		findFirstTabNode() {
			return this.children.length === 0 ? null : this.children[0].findFirstTabNode();
		}
		hitTestTabNodes(e, t) {
			for (let n = 0, r = this.children.length; n < r; ++n) {
				let r = this.children[n].hitTestTabNodes(e, t);
				if (r) return r;
			}
			return null;
		}
		createConfig() {
			let e = this.orientation, t = this.createNormalizedSizes();
			return {
				type: "split-area",
				orientation: e,
				children: this.children.map((e) => e.createConfig()),
				sizes: t
			};
		}
		syncHandles() {
			this.handles.forEach((e, t) => {
				e.setAttribute("data-orientation", this.orientation), t === this.handles.length - 1 ? e.classList.add("lm-mod-hidden") : e.classList.remove("lm-mod-hidden");
			});
		}
		holdSizes() {
			for (let e of this.sizers) e.sizeHint = e.size;
		}
		holdAllSizes() {
			for (let e of this.children) e.holdAllSizes();
			this.holdSizes();
		}
		normalizeSizes() {
			let e = this.sizers.length;
			if (e === 0) return;
			this.holdSizes();
			let t = this.sizers.reduce((e, t) => e + t.sizeHint, 0);
			if (t === 0) for (let t of this.sizers) t.size = t.sizeHint = 1 / e;
			else for (let e of this.sizers) e.size = e.sizeHint /= t;
			this.normalized = !0;
		}
		createNormalizedSizes() {
			let e = this.sizers.length;
			if (e === 0) return [];
			let t = this.sizers.map((e) => e.size), n = t.reduce((e, t) => e + t, 0);
			if (n === 0) for (let n = t.length - 1; n > -1; n--) t[n] = 1 / e;
			else for (let e = t.length - 1; e > -1; e--) t[e] /= n;
			return t;
		}
		fit(e, t) {
			let n = this.orientation === "horizontal", r = Math.max(0, this.children.length - 1) * e, i = n ? r : 0, a = n ? 0 : r;
			for (let r = 0, o = this.children.length; r < o; ++r) {
				let o = this.children[r].fit(e, t);
				n ? (a = Math.max(a, o.minHeight), i += o.minWidth, this.sizers[r].minSize = o.minWidth) : (i = Math.max(i, o.minWidth), a += o.minHeight, this.sizers[r].minSize = o.minHeight);
			}
			return {
				minWidth: i,
				minHeight: a,
				maxWidth: 1e400,
				maxHeight: 1e400
			};
		}
		update(e, t, n, r, i, a) {
			let o = this.orientation === "horizontal", s = Math.max(0, this.children.length - 1) * i, c = Math.max(0, (o ? n : r) - s);
			if (this.normalized) {
				for (let e of this.sizers) e.sizeHint *= c;
				this.normalized = !1;
			}
			k.calc(this.sizers, c);
			for (let s = 0, c = this.children.length; s < c; ++s) {
				let c = this.children[s], l = this.sizers[s].size, u = this.handles[s].style;
				o ? (c.update(e, t, l, r, i, a), e += l, u.top = `${t}px`, u.left = `${e}px`, u.width = `${i}px`, u.height = `${r}px`, e += i) : (c.update(e, t, n, l, i, a), t += l, u.top = `${t}px`, u.left = `${e}px`, u.width = `${n}px`, u.height = `${i}px`, t += i);
			}
		}
	}
	e.SplitLayoutNode = a, e.addAria = function(e, t) {
		e.node.setAttribute("role", "tabpanel");
		let n = t.renderer;
		if (n instanceof vt.Renderer) {
			let t = n.createTabKey({
				title: e.title,
				current: !1,
				zIndex: 0
			});
			e.node.setAttribute("aria-labelledby", t);
		}
	}, e.removeAria = function(e) {
		e.node.removeAttribute("role"), e.node.removeAttribute("aria-labelledby");
	};
	function o(e, t) {
		if (e.widgets.length === 0) return null;
		let n = [];
		for (let r of e.widgets) t.has(r) || (t.add(r), n.push(r));
		if (n.length === 0) return null;
		let r = e.currentIndex;
		return r !== -1 && (r < 0 || r >= n.length) && (r = 0), {
			type: "tab-area",
			widgets: n,
			currentIndex: r
		};
	}
	function s(e, t) {
		let r = e.orientation, i = [], a = [];
		for (let o = 0, s = e.children.length; o < s; ++o) {
			let s = n(e.children[o], t);
			s && (s.type === "tab-area" || s.orientation !== r ? (i.push(s), a.push(Math.abs(e.sizes[o] || 0))) : (i.push(...s.children), a.push(...s.sizes)));
		}
		return i.length === 0 ? null : i.length === 1 ? i[0] : {
			type: "split-area",
			orientation: r,
			children: i,
			sizes: a
		};
	}
	function c(t, n, r) {
		let a = n.createTabBar(r);
		for (let n of t.widgets) n.hide(), a.addTab(n.title), e.addAria(n, a);
		return a.currentIndex = t.currentIndex, new i(a);
	}
	function l(e, n, i) {
		let o = new a(e.orientation);
		return e.children.forEach((a, s) => {
			let c = r(a, n, i), l = t(e.sizes[s]), u = n.createHandle();
			o.children.push(c), o.handles.push(u), o.sizers.push(l), c.parent = o;
		}), o.syncHandles(), o.normalizeSizes(), o;
	}
})(P ||= {});
var bt = class e extends j {
	constructor(t = {}) {
		super(), this._evtDragLeaveCapture = () => {
			this.overlay.hide(1);
		}, this._evtDropCapture = () => {
			this.overlay.hide(0);
		}, this._applyDrag = () => {
			let e = this._pressData;
			if (!e) return;
			e.frameId = -1;
			let { handle: t, deltaX: n, deltaY: r, intersect: i, clientX: a, clientY: o } = e, s = this.node.getBoundingClientRect(), c = a - s.left - n, l = o - s.top - r, u = this.layout;
			if (u.moveHandle(t, c, l), i) {
				let e = a - s.left - i.deltaX, t = o - s.top - i.deltaY;
				u.moveHandle(i.handle, e, t);
			}
		}, this._applyHover = () => {
			this._hoverFrameId = -1;
			let e = this._hitTestHandle(this._hoverTarget);
			this._hoverTarget = null;
			let t = e ? this._findIntersectingHandle(e, this._hoverClientX, this._hoverClientY) : null;
			this._setIntersectionHoverHandle(t ? e : null, t);
		}, this._drag = null, this._tabsMovable = !0, this._tabsConstrained = !1, this._addButtonEnabled = !1, this._pressData = null, this._intersectionHoverStyler = new tt(), this._hoverChild = null, this._hoverHandle = null, this._hoverFrameId = -1, this._hoverTarget = null, this._hoverClientX = 0, this._hoverClientY = 0, this._layoutModified = new w(this), this._addRequested = new w(this), this.addClass("lm-DockPanel"), this._document = t.document || document, this._mode = t.mode || "multiple-document", this._renderer = t.renderer || e.defaultRenderer, this._edges = t.edges || F.DEFAULT_EDGES, t.tabsMovable !== void 0 && (this._tabsMovable = t.tabsMovable), t.tabsConstrained !== void 0 && (this._tabsConstrained = t.tabsConstrained), t.addButtonEnabled !== void 0 && (this._addButtonEnabled = t.addButtonEnabled), this.dataset.mode = this._mode;
		let n = {
			createTabBar: () => this._createTabBar(),
			createHandle: () => this._createHandle()
		};
		this.layout = new yt({
			document: this._document,
			renderer: n,
			spacing: t.spacing,
			hiddenMode: t.hiddenMode
		}), this.overlay = t.overlay || new e.Overlay(), this.node.appendChild(this.overlay.node);
	}
	dispose() {
		this._releaseMouse(), this.overlay.hide(0), this._drag && this._drag.dispose(), super.dispose();
	}
	get hiddenMode() {
		return this.layout.hiddenMode;
	}
	set hiddenMode(e) {
		this.layout.hiddenMode = e;
	}
	get layoutModified() {
		return this._layoutModified;
	}
	get addRequested() {
		return this._addRequested;
	}
	get renderer() {
		return this.layout.renderer;
	}
	get spacing() {
		return this.layout.spacing;
	}
	set spacing(e) {
		this.layout.spacing = e;
	}
	get mode() {
		return this._mode;
	}
	set mode(e) {
		if (this._mode === e) return;
		this._mode = e, this.dataset.mode = e;
		let t = this.layout;
		switch (e) {
			case "multiple-document":
				for (let e of t.tabBars()) e.show();
				break;
			case "single-document":
				t.restoreLayout(F.createSingleDocumentConfig(this));
				break;
			default: throw "unreachable";
		}
		C.postMessage(this, F.LayoutModified);
	}
	get tabsMovable() {
		return this._tabsMovable;
	}
	set tabsMovable(e) {
		this._tabsMovable = e;
		for (let t of this.tabBars()) t.tabsMovable = e;
	}
	get tabsConstrained() {
		return this._tabsConstrained;
	}
	set tabsConstrained(e) {
		this._tabsConstrained = e;
	}
	get addButtonEnabled() {
		return this._addButtonEnabled;
	}
	set addButtonEnabled(e) {
		this._addButtonEnabled = e;
		for (let t of this.tabBars()) t.addButtonEnabled = e;
	}
	get isEmpty() {
		return this.layout.isEmpty;
	}
	*widgets() {
		yield* this.layout.widgets();
	}
	*selectedWidgets() {
		yield* this.layout.selectedWidgets();
	}
	*tabBars() {
		yield* this.layout.tabBars();
	}
	*handles() {
		yield* this.layout.handles();
	}
	selectWidget(e) {
		let t = m(this.tabBars(), (t) => t.titles.indexOf(e.title) !== -1);
		if (!t) throw Error("Widget is not contained in the dock panel.");
		t.currentTitle = e.title;
	}
	activateWidget(e) {
		this.selectWidget(e), e.activate();
	}
	saveLayout() {
		return this.layout.saveLayout();
	}
	restoreLayout(e) {
		this._mode = "multiple-document", this.layout.restoreLayout(e), (be.IS_EDGE || be.IS_IE) && C.flush(), C.postMessage(this, F.LayoutModified);
	}
	addWidget(e, t = {}) {
		this._mode === "single-document" ? this.layout.addWidget(e) : this.layout.addWidget(e, t), C.postMessage(this, F.LayoutModified);
	}
	processMessage(e) {
		e.type === "layout-modified" ? this._layoutModified.emit(void 0) : super.processMessage(e);
	}
	handleEvent(e) {
		switch (e.type) {
			case "lm-dragenter":
				this._evtDragEnter(e);
				break;
			case "lm-dragleave":
				this._evtDragLeave(e);
				break;
			case "lm-dragover":
				this._evtDragOver(e);
				break;
			case "lm-drop":
				this._evtDrop(e);
				break;
			case "pointerdown":
				this._evtPointerDown(e);
				break;
			case "pointermove":
				this._evtPointerMove(e);
				break;
			case "pointerleave":
				this._hoverFrameId !== -1 && (this._view.cancelAnimationFrame(this._hoverFrameId), this._hoverFrameId = -1), this._setIntersectionHoverHandle(null);
				break;
			case "pointerup":
				this._evtPointerUp(e);
				break;
			case "pointercancel":
				this._evtPointerCancel(e);
				break;
			case "keydown":
				this._evtKeyDown(e);
				break;
			case "contextmenu": e.preventDefault(), e.stopPropagation();
		}
	}
	onBeforeAttach(e) {
		this.node.addEventListener("lm-dragenter", this), this.node.addEventListener("lm-dragleave", this._evtDragLeaveCapture, !0), this.node.addEventListener("lm-dragleave", this), this.node.addEventListener("lm-dragover", this), this.node.addEventListener("lm-drop", this._evtDropCapture, !0), this.node.addEventListener("lm-drop", this), this.node.addEventListener("pointerdown", this), this.node.addEventListener("pointermove", this), this.node.addEventListener("pointerleave", this);
	}
	onAfterDetach(e) {
		this.node.removeEventListener("lm-dragenter", this), this.node.removeEventListener("lm-dragleave", this._evtDragLeaveCapture, !0), this.node.removeEventListener("lm-dragleave", this), this.node.removeEventListener("lm-dragover", this), this.node.removeEventListener("lm-drop", this._evtDropCapture, !0), this.node.removeEventListener("lm-drop", this), this.node.removeEventListener("pointerdown", this), this.node.removeEventListener("pointermove", this), this.node.removeEventListener("pointerleave", this), this._hoverFrameId !== -1 && (this._view.cancelAnimationFrame(this._hoverFrameId), this._hoverFrameId = -1), this._setIntersectionHoverHandle(null, null), this._hoverChild = null, this._hoverHandle = null, this._releaseMouse();
	}
	onChildAdded(e) {
		F.isGeneratedTabBarProperty.get(e.child) || e.child.addClass("lm-DockPanel-widget");
	}
	onChildRemoved(e) {
		this._hoverChild === e.child.node && (this._hoverChild = null, this._hoverHandle = null), F.isGeneratedTabBarProperty.get(e.child) || (e.child.removeClass("lm-DockPanel-widget"), C.postMessage(this, F.LayoutModified));
	}
	_evtDragEnter(e) {
		e.mimeData.hasData("application/vnd.lumino.widget-factory") && (e.preventDefault(), e.stopPropagation());
	}
	_evtDragLeave(e) {
		e.preventDefault(), this._tabsConstrained && e.source !== this || (e.stopPropagation(), this.overlay.hide(1));
	}
	_evtDragOver(e) {
		e.preventDefault(), this._tabsConstrained && e.source !== this || this._showOverlay(e.clientX, e.clientY) === "invalid" ? e.dropAction = "none" : (e.stopPropagation(), e.dropAction = e.proposedAction);
	}
	_evtDrop(e) {
		if (e.preventDefault(), this.overlay.hide(0), e.proposedAction === "none") {
			e.dropAction = "none";
			return;
		}
		let { clientX: t, clientY: n } = e, { zone: r, target: i } = F.findDropTarget(this, t, n, this._edges);
		if (this._tabsConstrained && e.source !== this || r === "invalid") {
			e.dropAction = "none";
			return;
		}
		let a = e.mimeData.getData("application/vnd.lumino.widget-factory");
		if (typeof a != "function") {
			e.dropAction = "none";
			return;
		}
		let o = a();
		if (!(o instanceof j) || o.contains(this)) {
			e.dropAction = "none";
			return;
		}
		let s = i ? F.getDropRef(i.tabBar) : null;
		switch (r) {
			case "root-all":
				this.addWidget(o);
				break;
			case "root-top":
				this.addWidget(o, { mode: "split-top" });
				break;
			case "root-left":
				this.addWidget(o, { mode: "split-left" });
				break;
			case "root-right":
				this.addWidget(o, { mode: "split-right" });
				break;
			case "root-bottom":
				this.addWidget(o, { mode: "split-bottom" });
				break;
			case "widget-all":
				this.addWidget(o, {
					mode: "tab-after",
					ref: s
				});
				break;
			case "widget-top":
				this.addWidget(o, {
					mode: "split-top",
					ref: s
				});
				break;
			case "widget-left":
				this.addWidget(o, {
					mode: "split-left",
					ref: s
				});
				break;
			case "widget-right":
				this.addWidget(o, {
					mode: "split-right",
					ref: s
				});
				break;
			case "widget-bottom":
				this.addWidget(o, {
					mode: "split-bottom",
					ref: s
				});
				break;
			case "widget-tab":
				this.addWidget(o, {
					mode: "tab-after",
					ref: s
				});
				break;
			default: throw "unreachable";
		}
		e.dropAction = e.proposedAction, e.stopPropagation(), this.activateWidget(o);
	}
	_evtKeyDown(e) {
		e.preventDefault(), e.stopPropagation(), e.keyCode === 27 && (this._releaseMouse(), C.postMessage(this, F.LayoutModified));
	}
	_evtPointerDown(e) {
		if (e.button !== 0) return;
		let t = this.layout, n = e.target, r = m(t.handles(), (e) => e.contains(n));
		if (!r) return;
		e.preventDefault(), e.stopPropagation(), this._hoverFrameId !== -1 && (this._view.cancelAnimationFrame(this._hoverFrameId), this._hoverFrameId = -1), this._document.addEventListener("keydown", this, !0), this._document.addEventListener("pointerup", this, !0), this._document.addEventListener("pointermove", this, !0), this._document.addEventListener("pointercancel", this, !0), this._document.addEventListener("contextmenu", this, !0);
		let i = r.getBoundingClientRect(), a = e.clientX - i.left, o = e.clientY - i.top, s = this._findIntersectingHandle(r, e.clientX, e.clientY), c = s ? "move" : window.getComputedStyle(r).cursor, l = E.overrideCursor(c, this._document), u;
		if (s) {
			let t = s.getBoundingClientRect();
			u = {
				handle: s,
				deltaX: e.clientX - t.left,
				deltaY: e.clientY - t.top
			};
		}
		this._pressData = {
			handle: r,
			deltaX: a,
			deltaY: o,
			override: l,
			pointerId: e.pointerId,
			intersect: u,
			clientX: e.clientX,
			clientY: e.clientY,
			frameId: -1
		};
	}
	_evtPointerMove(e) {
		this._pressData ? (e.preventDefault(), e.stopPropagation(), this._pressData.clientX = e.clientX, this._pressData.clientY = e.clientY, this._pressData.frameId === -1 && (this._pressData.frameId = this._view.requestAnimationFrame(this._applyDrag))) : (this._hoverTarget = e.target, this._hoverClientX = e.clientX, this._hoverClientY = e.clientY, this._hoverFrameId === -1 && (this._hoverFrameId = this._view.requestAnimationFrame(this._applyHover)));
	}
	get _view() {
		return ("defaultView" in this._document ? this._document : this._document.ownerDocument).defaultView ?? window;
	}
	_findIntersectingHandle(e, t, n) {
		let r = e.getAttribute("data-orientation"), i = $e(this.spacing), a = null, o = 1e400;
		for (let s of this.handles()) {
			if (s === e || s.classList.contains("lm-mod-hidden") || s.getAttribute("data-orientation") === r) continue;
			let c = s.getBoundingClientRect(), l = Math.max(c.left - t, 0, t - c.right), u = Math.max(c.top - n, 0, n - c.bottom);
			if (l > i || u > i) continue;
			let d = Math.hypot(l, u);
			d < o && (a = s, o = d);
		}
		return a;
	}
	_hitTestHandle(e) {
		let t = et(this.node, e);
		if (t !== this._hoverChild) {
			let e = this.layout;
			this._hoverChild = t, this._hoverHandle = t ? m(e.handles(), (e) => e === t) ?? null : null;
		}
		return this._hoverHandle;
	}
	_evtPointerUp(e) {
		e.button === 0 && (e.preventDefault(), e.stopPropagation(), this._pressData && this._pressData.frameId !== -1 && (this._view.cancelAnimationFrame(this._pressData.frameId), this._applyDrag()), this._releaseMouse(), C.postMessage(this, F.LayoutModified));
	}
	_evtPointerCancel(e) {
		this._pressData && e.pointerId === this._pressData.pointerId && (this._releaseMouse(), C.postMessage(this, F.LayoutModified));
	}
	_releaseMouse() {
		this._pressData && (this._pressData.frameId !== -1 && this._view.cancelAnimationFrame(this._pressData.frameId), this._pressData.override.dispose(), this._pressData = null, this._document.removeEventListener("keydown", this, !0), this._document.removeEventListener("pointerup", this, !0), this._document.removeEventListener("pointermove", this, !0), this._document.removeEventListener("pointercancel", this, !0), this._document.removeEventListener("contextmenu", this, !0));
	}
	_setIntersectionHoverHandle(e, t = null) {
		this._intersectionHoverStyler.set(e, t);
	}
	_showOverlay(e, t) {
		let { zone: n, target: r } = F.findDropTarget(this, e, t, this._edges);
		if (n === "invalid") return this.overlay.hide(100), n;
		let i, a, o, s, c = x.boxSizing(this.node), l = this.node.getBoundingClientRect();
		switch (n) {
			case "root-all":
				i = c.paddingTop, a = c.paddingLeft, o = c.paddingRight, s = c.paddingBottom;
				break;
			case "root-top":
				i = c.paddingTop, a = c.paddingLeft, o = c.paddingRight, s = l.height * F.GOLDEN_RATIO;
				break;
			case "root-left":
				i = c.paddingTop, a = c.paddingLeft, o = l.width * F.GOLDEN_RATIO, s = c.paddingBottom;
				break;
			case "root-right":
				i = c.paddingTop, a = l.width * F.GOLDEN_RATIO, o = c.paddingRight, s = c.paddingBottom;
				break;
			case "root-bottom":
				i = l.height * F.GOLDEN_RATIO, a = c.paddingLeft, o = c.paddingRight, s = c.paddingBottom;
				break;
			case "widget-all":
				i = r.top, a = r.left, o = r.right, s = r.bottom;
				break;
			case "widget-top":
				i = r.top, a = r.left, o = r.right, s = r.bottom + r.height / 2;
				break;
			case "widget-left":
				i = r.top, a = r.left, o = r.right + r.width / 2, s = r.bottom;
				break;
			case "widget-right":
				i = r.top, a = r.left + r.width / 2, o = r.right, s = r.bottom;
				break;
			case "widget-bottom":
				i = r.top + r.height / 2, a = r.left, o = r.right, s = r.bottom;
				break;
			case "widget-tab": {
				let e = r.tabBar.node.getBoundingClientRect().height;
				i = r.top, a = r.left, o = r.right, s = r.bottom + r.height - e;
				break;
			}
			default: throw "unreachable";
		}
		return this.overlay.show({
			top: i,
			left: a,
			right: o,
			bottom: s
		}), n;
	}
	_createTabBar() {
		let e = this._renderer.createTabBar(this._document);
		return F.isGeneratedTabBarProperty.set(e, !0), this._mode === "single-document" && e.hide(), e.tabsMovable = this._tabsMovable, e.allowDeselect = !1, e.addButtonEnabled = this._addButtonEnabled, e.removeBehavior = "select-previous-tab", e.insertBehavior = "select-tab-if-needed", e.tabMoved.connect(this._onTabMoved, this), e.currentChanged.connect(this._onCurrentChanged, this), e.tabCloseRequested.connect(this._onTabCloseRequested, this), e.tabDetachRequested.connect(this._onTabDetachRequested, this), e.tabActivateRequested.connect(this._onTabActivateRequested, this), e.addRequested.connect(this._onTabAddRequested, this), e;
	}
	_createHandle() {
		return this._renderer.createHandle();
	}
	_onTabMoved() {
		C.postMessage(this, F.LayoutModified);
	}
	_onCurrentChanged(e, t) {
		let { previousTitle: n, currentTitle: r } = t;
		n && n.owner.hide(), r && r.owner.show(), (be.IS_EDGE || be.IS_IE) && C.flush(), C.postMessage(this, F.LayoutModified);
	}
	_onTabAddRequested(e) {
		this._addRequested.emit(e);
	}
	_onTabActivateRequested(e, t) {
		t.title.owner.activate();
	}
	_onTabCloseRequested(e, t) {
		t.title.owner.close();
	}
	_onTabDetachRequested(e, t) {
		if (this._drag) return;
		e.releaseMouse();
		let { title: n, tab: r, clientX: i, clientY: a, offset: o } = t, s = new b.MimeData();
		s.setData("application/vnd.lumino.widget-factory", () => n.owner);
		let c = r.cloneNode(!0);
		o && (c.style.top = `-${o.y}px`, c.style.left = `-${o.x}px`), this._drag = new E({
			document: this._document,
			mimeData: s,
			dragImage: c,
			proposedAction: "move",
			supportedActions: "move",
			source: this
		}), r.classList.add("lm-mod-hidden"), this._drag.start(i, a).then(() => {
			this._drag = null, r.classList.remove("lm-mod-hidden");
		});
	}
};
(function(e) {
	class t {
		constructor() {
			this._timer = -1, this._hidden = !0, this.node = document.createElement("div"), this.node.classList.add("lm-DockPanel-overlay"), this.node.classList.add("lm-mod-hidden"), this.node.style.position = "absolute", this.node.style.contain = "strict";
		}
		show(e) {
			let t = this.node.style;
			t.top = `${e.top}px`, t.left = `${e.left}px`, t.right = `${e.right}px`, t.bottom = `${e.bottom}px`, clearTimeout(this._timer), this._timer = -1, this._hidden && (this._hidden = !1, this.node.classList.remove("lm-mod-hidden"));
		}
		hide(e) {
			this._hidden || (e <= 0 ? (clearTimeout(this._timer), this._timer = -1, this._hidden = !0, this.node.classList.add("lm-mod-hidden")) : this._timer === -1 && (this._timer = window.setTimeout(() => {
				this._timer = -1, this._hidden = !0, this.node.classList.add("lm-mod-hidden");
			}, e)));
		}
	}
	e.Overlay = t;
	class n {
		createTabBar(e) {
			let t = new vt({ document: e });
			return t.addClass("lm-DockPanel-tabBar"), t;
		}
		createHandle() {
			let e = document.createElement("div");
			return e.className = "lm-DockPanel-handle", e;
		}
	}
	e.Renderer = n, e.defaultRenderer = new n();
})(bt ||= {});
var F;
(function(e) {
	e.GOLDEN_RATIO = .618, e.DEFAULT_EDGES = {
		top: 12,
		right: 40,
		bottom: 40,
		left: 40
	}, e.LayoutModified = new Te("layout-modified"), e.isGeneratedTabBarProperty = new Ee({
		name: "isGeneratedTabBar",
		create: () => !1
	}), e.createSingleDocumentConfig = function(e) {
		if (e.isEmpty) return { main: null };
		let t = Array.from(e.widgets()), n = e.selectedWidgets().next().value;
		return { main: {
			type: "tab-area",
			widgets: t,
			currentIndex: n ? t.indexOf(n) : -1
		} };
	}, e.findDropTarget = function(e, t, n, r) {
		if (!x.hitTest(e.node, t, n)) return {
			zone: "invalid",
			target: null
		};
		let i = e.layout;
		if (i.isEmpty) return {
			zone: "root-all",
			target: null
		};
		if (e.mode === "multiple-document") {
			let i = e.node.getBoundingClientRect(), a = t - i.left + 1, o = n - i.top + 1, s = i.right - t, c = i.bottom - n;
			switch (Math.min(o, s, c, a)) {
				case o:
					if (o < r.top) return {
						zone: "root-top",
						target: null
					};
					break;
				case s:
					if (s < r.right) return {
						zone: "root-right",
						target: null
					};
					break;
				case c:
					if (c < r.bottom) return {
						zone: "root-bottom",
						target: null
					};
					break;
				case a:
					if (a < r.left) return {
						zone: "root-left",
						target: null
					};
					break;
				default: throw "unreachable";
			}
		}
		let a = i.hitTestTabAreas(t, n);
		if (!a) return {
			zone: "invalid",
			target: null
		};
		if (e.mode === "single-document") return {
			zone: "widget-all",
			target: a
		};
		let o = a.x - a.left + 1, s = a.y - a.top + 1, c = a.left + a.width - a.x, l = a.top + a.height - a.y, u = a.tabBar.node.getBoundingClientRect().height;
		if (s < u) return {
			zone: "widget-tab",
			target: a
		};
		let d = Math.round(a.width / 3), f = Math.round(a.height / 3);
		if (o > d && c > d && s > f && l > f) return {
			zone: "widget-all",
			target: a
		};
		o /= d, s /= f, c /= d, l /= f;
		let p = Math.min(o, s, c, l), m;
		switch (p) {
			case o:
				m = "widget-left";
				break;
			case s:
				m = "widget-top";
				break;
			case c:
				m = "widget-right";
				break;
			case l:
				m = "widget-bottom";
				break;
			default: throw "unreachable";
		}
		return {
			zone: m,
			target: a
		};
	}, e.getDropRef = function(e) {
		return e.titles.length === 0 ? null : e.currentTitle ? e.currentTitle.owner : e.titles[e.titles.length - 1].owner;
	};
})(F ||= {});
var xt = class e extends Ge {
	constructor(e = {}) {
		super(e), this._dirty = !1, this._rowSpacing = 4, this._columnSpacing = 4, this._items = [], this._rowStarts = [], this._columnStarts = [], this._rowSizers = [new Ve()], this._columnSizers = [new Ve()], this._box = null, e.rowCount !== void 0 && I.reallocSizers(this._rowSizers, e.rowCount), e.columnCount !== void 0 && I.reallocSizers(this._columnSizers, e.columnCount), e.rowSpacing !== void 0 && (this._rowSpacing = I.clampValue(e.rowSpacing)), e.columnSpacing !== void 0 && (this._columnSpacing = I.clampValue(e.columnSpacing));
	}
	dispose() {
		for (let e of this._items) {
			let t = e.widget;
			e.dispose(), t.dispose();
		}
		this._box = null, this._items.length = 0, this._rowStarts.length = 0, this._rowSizers.length = 0, this._columnStarts.length = 0, this._columnSizers.length = 0, super.dispose();
	}
	get rowCount() {
		return this._rowSizers.length;
	}
	set rowCount(e) {
		e !== this.rowCount && (I.reallocSizers(this._rowSizers, e), this.parent && this.parent.fit());
	}
	get columnCount() {
		return this._columnSizers.length;
	}
	set columnCount(e) {
		e !== this.columnCount && (I.reallocSizers(this._columnSizers, e), this.parent && this.parent.fit());
	}
	get rowSpacing() {
		return this._rowSpacing;
	}
	set rowSpacing(e) {
		e = I.clampValue(e), this._rowSpacing !== e && (this._rowSpacing = e, this.parent && this.parent.fit());
	}
	get columnSpacing() {
		return this._columnSpacing;
	}
	set columnSpacing(e) {
		e = I.clampValue(e), this._columnSpacing !== e && (this._columnSpacing = e, this.parent && this.parent.fit());
	}
	rowStretch(e) {
		let t = this._rowSizers[e];
		return t ? t.stretch : -1;
	}
	setRowStretch(e, t) {
		let n = this._rowSizers[e];
		n && (t = I.clampValue(t), n.stretch !== t && (n.stretch = t, this.parent && this.parent.update()));
	}
	columnStretch(e) {
		let t = this._columnSizers[e];
		return t ? t.stretch : -1;
	}
	setColumnStretch(e, t) {
		let n = this._columnSizers[e];
		n && (t = I.clampValue(t), n.stretch !== t && (n.stretch = t, this.parent && this.parent.update()));
	}
	*[Symbol.iterator]() {
		for (let e of this._items) yield e.widget;
	}
	addWidget(e) {
		y.findFirstIndex(this._items, (t) => t.widget === e) === -1 && (this._items.push(new Ke(e)), this.parent && this.attachWidget(e));
	}
	removeWidget(e) {
		let t = y.findFirstIndex(this._items, (t) => t.widget === e);
		if (t === -1) return;
		let n = y.removeAt(this._items, t);
		this.parent && this.detachWidget(e), n.dispose();
	}
	init() {
		super.init();
		for (let e of this) this.attachWidget(e);
	}
	attachWidget(e) {
		this.parent.isAttached && C.sendMessage(e, j.Msg.BeforeAttach), this.parent.node.appendChild(e.node), this.parent.isAttached && C.sendMessage(e, j.Msg.AfterAttach), this.parent.fit();
	}
	detachWidget(e) {
		this.parent.isAttached && C.sendMessage(e, j.Msg.BeforeDetach), this.parent.node.removeChild(e.node), this.parent.isAttached && C.sendMessage(e, j.Msg.AfterDetach), this.parent.fit();
	}
	onBeforeShow(e) {
		super.onBeforeShow(e), this.parent.update();
	}
	onBeforeAttach(e) {
		super.onBeforeAttach(e), this.parent.fit();
	}
	onChildShown(e) {
		this.parent.fit();
	}
	onChildHidden(e) {
		this.parent.fit();
	}
	onResize(e) {
		this.parent.isVisible && this._update(e.width, e.height);
	}
	onUpdateRequest(e) {
		this.parent.isVisible && this._update(-1, -1);
	}
	onFitRequest(e) {
		this.parent.isAttached && this._fit();
	}
	_fit() {
		for (let e = 0, t = this.rowCount; e < t; ++e) this._rowSizers[e].minSize = 0;
		for (let e = 0, t = this.columnCount; e < t; ++e) this._columnSizers[e].minSize = 0;
		let t = this._items.filter((e) => !e.isHidden);
		for (let e = 0, n = t.length; e < n; ++e) t[e].fit();
		let n = this.rowCount - 1, r = this.columnCount - 1;
		t.sort(I.rowSpanCmp);
		for (let r = 0, i = t.length; r < i; ++r) {
			let i = t[r], a = e.getCellConfig(i.widget), o = Math.min(a.row, n), s = Math.min(a.row + a.rowSpan - 1, n);
			I.distributeMin(this._rowSizers, o, s, i.minHeight);
		}
		t.sort(I.columnSpanCmp);
		for (let n = 0, i = t.length; n < i; ++n) {
			let i = t[n], a = e.getCellConfig(i.widget), o = Math.min(a.column, r), s = Math.min(a.column + a.columnSpan - 1, r);
			I.distributeMin(this._columnSizers, o, s, i.minWidth);
		}
		if (this.fitPolicy === "set-no-constraint") {
			this._box = null, C.sendMessage(this.parent, j.Msg.UpdateRequest);
			return;
		}
		let i = n * this._rowSpacing, a = r * this._columnSpacing;
		for (let e = 0, t = this.rowCount; e < t; ++e) i += this._rowSizers[e].minSize;
		for (let e = 0, t = this.columnCount; e < t; ++e) a += this._columnSizers[e].minSize;
		let o = this._box = x.boxSizing(this.parent.node);
		a += o.horizontalSum, i += o.verticalSum;
		let s = this.parent.node.style;
		s.minWidth = `${a}px`, s.minHeight = `${i}px`, this._dirty = !0, this.parent.parent && C.sendMessage(this.parent.parent, j.Msg.FitRequest), this._dirty && C.sendMessage(this.parent, j.Msg.UpdateRequest);
	}
	_update(t, n) {
		this._dirty = !1, t < 0 && (t = this.parent.node.offsetWidth), n < 0 && (n = this.parent.node.offsetHeight), this._box ||= x.boxSizing(this.parent.node);
		let r = this._box.paddingTop, i = this._box.paddingLeft, a = t - this._box.horizontalSum, o = n - this._box.verticalSum, s = this.rowCount - 1, c = this.columnCount - 1, l = s * this._rowSpacing, u = c * this._columnSpacing;
		k.calc(this._rowSizers, Math.max(0, o - l)), k.calc(this._columnSizers, Math.max(0, a - u));
		for (let e = 0, t = r, n = this.rowCount; e < n; ++e) this._rowStarts[e] = t, t += this._rowSizers[e].size + this._rowSpacing;
		for (let e = 0, t = i, n = this.columnCount; e < n; ++e) this._columnStarts[e] = t, t += this._columnSizers[e].size + this._columnSpacing;
		for (let t = 0, n = this._items.length; t < n; ++t) {
			let n = this._items[t];
			if (n.isHidden) continue;
			let r = e.getCellConfig(n.widget), i = Math.min(r.row, s), a = Math.min(r.column, c), o = Math.min(r.row + r.rowSpan - 1, s), l = Math.min(r.column + r.columnSpan - 1, c), u = this._columnStarts[a], d = this._rowStarts[i], f = this._columnStarts[l] + this._columnSizers[l].size - u, p = this._rowStarts[o] + this._rowSizers[o].size - d;
			n.update(u, d, f, p);
		}
	}
};
(function(e) {
	e.getCellConfig = function(e) {
		return I.cellConfigProperty.get(e);
	}, e.setCellConfig = function(e, t) {
		I.cellConfigProperty.set(e, I.normalizeConfig(t));
	};
})(xt ||= {});
var I;
(function(e) {
	e.cellConfigProperty = new Ee({
		name: "cellConfig",
		create: () => ({
			row: 0,
			column: 0,
			rowSpan: 1,
			columnSpan: 1
		}),
		changed: t
	}), e.normalizeConfig = function(e) {
		return {
			row: Math.max(0, Math.floor(e.row || 0)),
			column: Math.max(0, Math.floor(e.column || 0)),
			rowSpan: Math.max(1, Math.floor(e.rowSpan || 0)),
			columnSpan: Math.max(1, Math.floor(e.columnSpan || 0))
		};
	}, e.clampValue = function(e) {
		return Math.max(0, Math.floor(e));
	}, e.rowSpanCmp = function(t, n) {
		let r = e.cellConfigProperty.get(t.widget), i = e.cellConfigProperty.get(n.widget);
		return r.rowSpan - i.rowSpan;
	}, e.columnSpanCmp = function(t, n) {
		let r = e.cellConfigProperty.get(t.widget), i = e.cellConfigProperty.get(n.widget);
		return r.columnSpan - i.columnSpan;
	}, e.reallocSizers = function(e, t) {
		for (t = Math.max(1, Math.floor(t)); e.length < t;) e.push(new Ve());
		e.length > t && (e.length = t);
	}, e.distributeMin = function(e, t, n, r) {
		if (n < t) return;
		if (t === n) {
			let n = e[t];
			n.minSize = Math.max(n.minSize, r);
			return;
		}
		let i = 0;
		for (let r = t; r <= n; ++r) i += e[r].minSize;
		if (i >= r) return;
		let a = (r - i) / (n - t + 1);
		for (let r = t; r <= n; ++r) e[r].minSize += a;
	};
	function t(e) {
		e.parent && e.parent.layout instanceof xt && e.parent.fit();
	}
})(I ||= {});
var St = class e extends j {
	constructor(t = {}) {
		super({ node: Ct.createNode() }), this._activeIndex = -1, this._tabFocusIndex = 0, this._menus = [], this._childMenu = null, this._overflowMenu = null, this._menuItemSizes = [], this._overflowIndex = -1, this.addClass("lm-MenuBar"), this.setFlag(j.Flag.DisallowLayout), this.renderer = t.renderer || e.defaultRenderer, this._forceItemsPosition = t.forceItemsPosition || {
			forceX: !0,
			forceY: !0
		}, this._overflowMenuOptions = t.overflowMenuOptions || { isVisible: !0 };
	}
	dispose() {
		this._closeChildMenu(), this._menus.length = 0, super.dispose();
	}
	get childMenu() {
		return this._childMenu;
	}
	get overflowIndex() {
		return this._overflowIndex;
	}
	get overflowMenu() {
		return this._overflowMenu;
	}
	get contentNode() {
		return this.node.getElementsByClassName("lm-MenuBar-content")[0];
	}
	get activeMenu() {
		return this._menus[this._activeIndex] || null;
	}
	set activeMenu(e) {
		this.activeIndex = e ? this._menus.indexOf(e) : -1;
	}
	get activeIndex() {
		return this._activeIndex;
	}
	set activeIndex(e) {
		(e < 0 || e >= this._menus.length) && (e = -1), e > -1 && this._menus[e].items.length === 0 && (e = -1), this._activeIndex !== e && (this._activeIndex = e, this.update());
	}
	get menus() {
		return this._menus;
	}
	openActiveMenu() {
		this._activeIndex !== -1 && (this._openChildMenu(), this._childMenu && (this._childMenu.activeIndex = -1, this._childMenu.activateNextItem()));
	}
	addMenu(e, t = !0) {
		this.insertMenu(this._menus.length, e, t);
	}
	insertMenu(e, t, n = !0) {
		this._closeChildMenu();
		let r = this._menus.indexOf(t), i = Math.max(0, Math.min(e, this._menus.length));
		r === -1 ? (y.insert(this._menus, i, t), t.addClass("lm-MenuBar-menu"), t.aboutToClose.connect(this._onMenuAboutToClose, this), t.menuRequested.connect(this._onMenuMenuRequested, this), t.title.changed.connect(this._onTitleChanged, this), n && this.update()) : (i === this._menus.length && i--, r !== i && (y.move(this._menus, r, i), n && this.update()));
	}
	removeMenu(e, t = !0) {
		this.removeMenuAt(this._menus.indexOf(e), t);
	}
	removeMenuAt(e, t = !0) {
		this._closeChildMenu();
		let n = y.removeAt(this._menus, e);
		n && (n.aboutToClose.disconnect(this._onMenuAboutToClose, this), n.menuRequested.disconnect(this._onMenuMenuRequested, this), n.title.changed.disconnect(this._onTitleChanged, this), n.removeClass("lm-MenuBar-menu"), t && this.update());
	}
	clearMenus() {
		if (this._menus.length !== 0) {
			this._closeChildMenu();
			for (let e of this._menus) e.aboutToClose.disconnect(this._onMenuAboutToClose, this), e.menuRequested.disconnect(this._onMenuMenuRequested, this), e.title.changed.disconnect(this._onTitleChanged, this), e.removeClass("lm-MenuBar-menu");
			this._menus.length = 0, this._overflowMenu = null, this._overflowIndex = -1, this._menuItemSizes.length = 0, this.update();
		}
	}
	handleEvent(e) {
		switch (e.type) {
			case "keydown":
				this._evtKeyDown(e);
				break;
			case "pointerdown":
				this._evtPointerDown(e);
				break;
			case "pointermove":
			case "pointerleave":
				this._evtPointerMove(e);
				break;
			case "focusout":
				this._evtFocusOut(e);
				break;
			case "contextmenu": e.preventDefault(), e.stopPropagation();
		}
	}
	onBeforeAttach(e) {
		this.node.addEventListener("keydown", this), this.node.addEventListener("pointerdown", this), this.node.addEventListener("pointermove", this), this.node.addEventListener("pointerleave", this), this.node.addEventListener("focusout", this), this.node.addEventListener("contextmenu", this);
	}
	onAfterDetach(e) {
		this.node.removeEventListener("keydown", this), this.node.removeEventListener("pointerdown", this), this.node.removeEventListener("pointermove", this), this.node.removeEventListener("pointerleave", this), this.node.removeEventListener("focusout", this), this.node.removeEventListener("contextmenu", this), this._closeChildMenu();
	}
	onActivateRequest(e) {
		this.isAttached && this._focusItemAt(0);
	}
	onResize(e) {
		this.update(), super.onResize(e);
	}
	onUpdateRequest(e) {
		this._menuItemSizes.length > 0 && this._updateOverflowIndex();
		let t = this._menus, n = this.renderer, r = this._activeIndex, i = this._tabFocusIndex >= 0 && this._tabFocusIndex < t.length ? this._tabFocusIndex : 0, a = this._overflowIndex > -1 ? this._overflowIndex : t.length, o = 0, s = !1;
		if (a = this._overflowMenu === null ? a : Math.max(a - 1, 0), this._overflowMenu !== null) {
			for (; t.length - 1 < a && this._overflowMenu.items.length > 0;) {
				let e = this._overflowMenu.items[0].submenu;
				this._overflowMenu.removeItemAt(0), this.insertMenu(t.length - 1, e, !1);
			}
			a = Math.min(a, t.length - 1);
		} else a = Math.min(a, t.length);
		let c = Array(a);
		for (let e = 0; e < a; ++e) c[e] = n.renderItem({
			title: t[e].title,
			active: e === r,
			tabbable: e === i,
			disabled: t[e].items.length === 0,
			onfocus: () => {
				this._tabFocusIndex = e, this.activeIndex = e;
			}
		}), o += this._menuItemSizes[e], t[e].title.label === this._overflowMenuOptions.title && (s = !0, a--);
		if (this._overflowMenuOptions.isVisible) {
			if (this._overflowIndex > -1 && !s) {
				if (this._overflowMenu === null) {
					let e = this._overflowMenuOptions.title ?? "...";
					this._overflowMenu = new mt({ commands: new Fe() }), this._overflowMenu.title.label = e, this._overflowMenu.title.mnemonic = 0, this.addMenu(this._overflowMenu, !1);
				}
				for (let e = t.length - 2; e >= a; e--) {
					let t = this.menus[e];
					t.title.mnemonic = 0, this._overflowMenu.insertItem(0, {
						type: "submenu",
						submenu: t
					}), this.removeMenu(t, !1);
				}
				c[a] = n.renderItem({
					title: this._overflowMenu.title,
					active: a === r && t[a].items.length !== 0,
					tabbable: a === i,
					disabled: t[a].items.length === 0,
					onfocus: () => {
						this._tabFocusIndex = a, this.activeIndex = a;
					}
				}), a++;
			} else if (this._overflowMenu !== null) {
				let e = this._overflowMenu.items, r = this.node.offsetWidth, s = this._overflowMenu.items.length;
				for (let l = 0; l < s; ++l) {
					let s = t.length - 1 - l;
					if (r - o > this._menuItemSizes[s]) {
						let r = e[0].submenu;
						this._overflowMenu.removeItemAt(0), this.insertMenu(a, r, !1), c[a] = n.renderItem({
							title: r.title,
							active: !1,
							tabbable: a === i,
							disabled: t[a].items.length === 0,
							onfocus: () => {
								this._tabFocusIndex = a, this.activeIndex = a;
							}
						}), a++;
					}
				}
				this._overflowMenu.items.length === 0 && (this.removeMenu(this._overflowMenu, !1), this._overflowMenu = null, this._overflowIndex = -1);
			}
		}
		ze.render(c, this.contentNode), this._updateOverflowIndex();
	}
	_updateOverflowIndex() {
		if (!this._overflowMenuOptions.isVisible) return;
		let e = this.contentNode.childNodes, t = this.node.offsetWidth, n = 0, r = -1, i = e.length;
		if (this._menuItemSizes.length == 0) for (let a = 0; a < i; a++) {
			let i = e[a];
			n += i.offsetWidth, this._menuItemSizes.push(i.offsetWidth), n > t && r === -1 && (r = a);
		}
		else for (let e = 0; e < this._menuItemSizes.length; e++) if (n += this._menuItemSizes[e], n > t) {
			r = e;
			break;
		}
		t > 0 && (this._overflowIndex = r);
	}
	_evtKeyDown(e) {
		let t = e.keyCode;
		if (t === 9) {
			this.activeIndex = -1;
			return;
		}
		if (e.preventDefault(), e.stopPropagation(), t === 13 || t === 32 || t === 38 || t === 40) {
			if (this.activeIndex = this._tabFocusIndex, this.activeIndex !== this._tabFocusIndex) return;
			this.openActiveMenu();
			return;
		}
		if (t === 27) {
			this._closeChildMenu(), this._focusItemAt(this.activeIndex);
			return;
		}
		if (t === 37 || t === 39) {
			let e = t === 37 ? -1 : 1, n = this._tabFocusIndex + e, r = this._menus.length;
			for (let t = 0; t < r; t++) {
				let i = (r + n + e * t) % r;
				if (this._menus[i].items.length) {
					this._focusItemAt(i);
					return;
				}
			}
			return;
		}
		let n = je().keyForKeydownEvent(e);
		if (!n) return;
		let r = this._activeIndex + 1, i = Ct.findMnemonic(this._menus, n, r);
		i.index !== -1 && !i.multiple ? (this.activeIndex = i.index, this.openActiveMenu()) : i.index === -1 ? i.auto !== -1 && (this.activeIndex = i.auto, this._focusItemAt(this.activeIndex)) : (this.activeIndex = i.index, this._focusItemAt(this.activeIndex));
	}
	_evtPointerDown(e) {
		if (!x.hitTest(this.node, e.clientX, e.clientY)) return;
		e.stopPropagation(), e.stopImmediatePropagation();
		let t = y.findFirstIndex(this.contentNode.children, (t) => x.hitTest(t, e.clientX, e.clientY));
		if (t === -1) this._closeChildMenu();
		else if (e.button === 0) {
			if (this._childMenu) this._closeChildMenu(), this.activeIndex = t;
			else {
				e.preventDefault();
				let n = this._positionForMenu(t);
				mt.saveWindowData(), this.activeIndex = t, this._openChildMenu(n);
			}
		}
	}
	_evtPointerMove(e) {
		if (A.isTouchEvent(e)) return;
		let t = y.findFirstIndex(this.contentNode.children, (t) => x.hitTest(t, e.clientX, e.clientY));
		if (t === this._activeIndex || t === -1 && this._childMenu) return;
		let n = t >= 0 && this._childMenu ? this._positionForMenu(t) : null;
		mt.saveWindowData(), this.activeIndex = t, n && this._openChildMenu(n);
	}
	_positionForMenu(e) {
		let { left: t, bottom: n } = this.contentNode.children[e].getBoundingClientRect();
		return {
			top: n,
			left: t
		};
	}
	_evtFocusOut(e) {
		!this._childMenu && !this.node.contains(e.relatedTarget) && (this.activeIndex = -1);
	}
	_focusItemAt(e) {
		let t = this.contentNode.childNodes[e];
		t && t.focus();
	}
	_openChildMenu(e = {}) {
		let t = this.activeMenu;
		if (!t) {
			this._closeChildMenu();
			return;
		}
		let n = this._childMenu;
		if (n === t) return;
		this._childMenu = t, n ? n.close() : document.addEventListener("pointerdown", this, !0), this._tabFocusIndex = this.activeIndex, C.sendMessage(this, j.Msg.UpdateRequest);
		let { left: r, top: i } = e;
		(r === void 0 || i === void 0) && ({left: r, top: i} = this._positionForMenu(this._activeIndex)), n || this.addClass("lm-mod-active"), t.items.length > 0 && t.open(r, i, this._forceItemsPosition);
	}
	_closeChildMenu() {
		if (!this._childMenu) return;
		this.removeClass("lm-mod-active"), document.removeEventListener("pointerdown", this, !0);
		let e = this._childMenu;
		this._childMenu = null, e.close(), this.activeIndex = -1;
	}
	_onMenuAboutToClose(e) {
		e === this._childMenu && (this.removeClass("lm-mod-active"), document.removeEventListener("pointerdown", this, !0), this._childMenu = null, this.activeIndex = -1);
	}
	_onMenuMenuRequested(e, t) {
		if (e !== this._childMenu) return;
		let n = this._activeIndex, r = this._menus.length;
		switch (t) {
			case "next":
				this.activeIndex = n === r - 1 ? 0 : n + 1;
				break;
			case "previous": this.activeIndex = n === 0 ? r - 1 : n - 1;
		}
		this.openActiveMenu();
	}
	_onTitleChanged() {
		this.update();
	}
};
(function(e) {
	class t {
		renderItem(e) {
			let t = this.createItemClass(e), n = this.createItemDataset(e), r = this.createItemARIA(e);
			return O.li({
				className: t,
				dataset: n,
				...e.disabled ? {} : { tabindex: e.tabbable ? "0" : "-1" },
				onfocus: e.onfocus,
				...r
			}, this.renderIcon(e), this.renderLabel(e));
		}
		renderIcon(e) {
			let t = this.createIconClass(e);
			return O.div({ className: t }, e.title.icon, e.title.iconLabel);
		}
		renderLabel(e) {
			let t = this.formatLabel(e);
			return O.div({ className: "lm-MenuBar-itemLabel" }, t);
		}
		createItemClass(e) {
			let t = "lm-MenuBar-item";
			return e.title.className && (t += ` ${e.title.className}`), e.active && !e.disabled && (t += " lm-mod-active"), t;
		}
		createItemDataset(e) {
			return e.title.dataset;
		}
		createItemARIA(e) {
			return {
				role: "menuitem",
				"aria-haspopup": "true",
				"aria-disabled": e.disabled ? "true" : "false"
			};
		}
		createIconClass(e) {
			let t = "lm-MenuBar-itemIcon", n = e.title.iconClass;
			return n ? `${t} ${n}` : t;
		}
		formatLabel(e) {
			let { label: t, mnemonic: n } = e.title;
			if (n < 0 || n >= t.length) return t;
			let r = t.slice(0, n), i = t.slice(n + 1), a = t[n];
			return [
				r,
				O.span({ className: "lm-MenuBar-itemMnemonic" }, a),
				i
			];
		}
	}
	e.Renderer = t, e.defaultRenderer = new t();
})(St ||= {});
var Ct;
(function(e) {
	e.createNode = function() {
		let e = document.createElement("div"), t = document.createElement("ul");
		return t.className = "lm-MenuBar-content", e.appendChild(t), t.setAttribute("role", "menubar"), e;
	}, e.findMnemonic = function(e, t, n) {
		let r = -1, i = -1, a = !1, o = t.toUpperCase();
		for (let t = 0, s = e.length; t < s; ++t) {
			let c = (t + n) % s, l = e[c].title;
			if (l.label.length === 0) continue;
			let u = l.mnemonic;
			u >= 0 && u < l.label.length ? l.label[u].toUpperCase() === o && (r === -1 ? r = c : a = !0) : i === -1 && l.label[0].toUpperCase() === o && (i = c);
		}
		return {
			index: r,
			multiple: a,
			auto: i
		};
	};
})(Ct ||= {});
var wt;
(function(e) {
	e.createNode = function() {
		let e = document.createElement("div"), t = document.createElement("div"), n = document.createElement("div"), r = document.createElement("div"), i = document.createElement("div");
		return t.className = "lm-ScrollBar-button", n.className = "lm-ScrollBar-button", t.dataset.action = "decrement", n.dataset.action = "increment", r.className = "lm-ScrollBar-track", i.className = "lm-ScrollBar-thumb", r.appendChild(i), e.appendChild(t), e.appendChild(r), e.appendChild(n), e;
	}, e.findPart = function(e, t) {
		return e.thumbNode.contains(t) ? "thumb" : e.trackNode.contains(t) ? "track" : e.decrementNode.contains(t) ? "decrement" : e.incrementNode.contains(t) ? "increment" : null;
	};
})(wt ||= {});
var Tt = class extends Je {
	constructor(e = {}) {
		super(e), this._dirty = !1, this._items = [], this._box = null, this._hiddenMode = e.hiddenMode === void 0 ? j.HiddenMode.Display : e.hiddenMode;
	}
	get hiddenMode() {
		return this._hiddenMode;
	}
	set hiddenMode(e) {
		this._hiddenMode !== e && (this._hiddenMode = e, this.widgets.length > 1 && this.widgets.forEach((e) => {
			e.hiddenMode = this._hiddenMode;
		}));
	}
	dispose() {
		for (let e of this._items) e.dispose();
		this._box = null, this._items.length = 0, super.dispose();
	}
	attachWidget(e, t) {
		this._hiddenMode === j.HiddenMode.Scale && this._items.length > 0 ? (this._items.length === 1 && (this.widgets[0].hiddenMode = j.HiddenMode.Scale), t.hiddenMode = j.HiddenMode.Scale) : t.hiddenMode = j.HiddenMode.Display, y.insert(this._items, e, new Ke(t)), this.parent.isAttached && C.sendMessage(t, j.Msg.BeforeAttach), this.parent.node.appendChild(t.node), this.parent.isAttached && C.sendMessage(t, j.Msg.AfterAttach), this.parent.fit();
	}
	moveWidget(e, t, n) {
		y.move(this._items, e, t), this.parent.update();
	}
	detachWidget(e, t) {
		let n = y.removeAt(this._items, e);
		this.parent.isAttached && C.sendMessage(t, j.Msg.BeforeDetach), this.parent.node.removeChild(t.node), this.parent.isAttached && C.sendMessage(t, j.Msg.AfterDetach), n.widget.node.style.zIndex = "", this._hiddenMode === j.HiddenMode.Scale && (t.hiddenMode = j.HiddenMode.Display, this._items.length === 1 && (this._items[0].widget.hiddenMode = j.HiddenMode.Display)), n.dispose(), this.parent.fit();
	}
	onBeforeShow(e) {
		super.onBeforeShow(e), this.parent.update();
	}
	onBeforeAttach(e) {
		super.onBeforeAttach(e), this.parent.fit();
	}
	onChildShown(e) {
		this.parent.fit();
	}
	onChildHidden(e) {
		this.parent.fit();
	}
	onResize(e) {
		this.parent.isVisible && this._update(e.width, e.height);
	}
	onUpdateRequest(e) {
		this.parent.isVisible && this._update(-1, -1);
	}
	onFitRequest(e) {
		this.parent.isAttached && this._fit();
	}
	_fit() {
		let e = 0, t = 0;
		for (let n = 0, r = this._items.length; n < r; ++n) {
			let r = this._items[n];
			r.isHidden || (r.fit(), e = Math.max(e, r.minWidth), t = Math.max(t, r.minHeight));
		}
		let n = this._box = x.boxSizing(this.parent.node);
		e += n.horizontalSum, t += n.verticalSum;
		let r = this.parent.node.style;
		r.minWidth = `${e}px`, r.minHeight = `${t}px`, this._dirty = !0, this.parent.parent && C.sendMessage(this.parent.parent, j.Msg.FitRequest), this._dirty && C.sendMessage(this.parent, j.Msg.UpdateRequest);
	}
	_update(e, t) {
		this._dirty = !1;
		let n = 0;
		for (let e = 0, t = this._items.length; e < t; ++e) n += +!this._items[e].isHidden;
		if (n === 0) return;
		e < 0 && (e = this.parent.node.offsetWidth), t < 0 && (t = this.parent.node.offsetHeight), this._box ||= x.boxSizing(this.parent.node);
		let r = this._box.paddingTop, i = this._box.paddingLeft, a = e - this._box.horizontalSum, o = t - this._box.verticalSum;
		for (let e = 0, t = this._items.length; e < t; ++e) {
			let t = this._items[e];
			t.isHidden || (t.widget.node.style.zIndex = `${e}`, t.update(i, r, a, o));
		}
	}
}, Et;
(function(e) {
	e.createLayout = function(e) {
		return e.layout || new Tt();
	};
})(Et ||= {});
var Dt;
(function(e) {
	e.orientationFromPlacement = function(e) {
		return t[e];
	}, e.directionFromPlacement = function(e) {
		return n[e];
	};
	let t = {
		top: "horizontal",
		left: "vertical",
		right: "vertical",
		bottom: "horizontal"
	}, n = {
		top: "top-to-bottom",
		left: "left-to-right",
		right: "right-to-left",
		bottom: "bottom-to-top"
	};
})(Dt ||= {});
// shared/mime.ts
var L = {
	run: "application/vnd.nighthawk.run+json",
	execution: "application/vnd.nighthawk.execution+json",
	operation: "application/vnd.nighthawk.operation+json",
	stepCommit: "application/vnd.nighthawk.step-commit+json",
	traceAnomaly: "application/vnd.nighthawk.trace-anomaly+json",
	allocationExhausted: "application/vnd.nighthawk.allocation-exhausted+json",
	ledger: "application/vnd.nighthawk.ledger+json",
	approval: "application/vnd.nighthawk.approval+json"
};
// node_modules/zod/v4/core/util.js
function Ot(e) {
	let t = Object.values(e).filter((e) => typeof e == "number");
	return Object.entries(e).filter(([e, n]) => t.indexOf(+e) === -1).map(([e, t]) => t);
}
function kt(e, t) {
	return typeof t == "bigint" ? t.toString() : t;
}
var At = class {
	constructor(e) {
		this._getter = e, this._value = void 0;
	}
	get value() {
		let e = this._getter;
		return e !== void 0 && (this._value = e(), this._getter = void 0), this._value;
	}
};
function jt(e) {
	return new At(e);
}
function Mt(e) {
	let t = +!!e.startsWith("^"), n = e.endsWith("$") ? e.length - 1 : e.length;
	return e.slice(t, n);
}
function Nt(e, t, n) {
	Object.defineProperty(e, t, {
		value: n,
		writable: !0,
		enumerable: !0,
		configurable: !0
	});
}
var Pt = "captureStackTrace" in Error ? Error.captureStackTrace : (...e) => {};
function Ft(e) {
	return typeof e == "object" && !!e && !Array.isArray(e);
}
function It(e) {
	if (Ft(e) === !1) return !1;
	let t = e.constructor;
	if (t === void 0 || typeof t != "function") return !0;
	let n = t.prototype;
	return Ft(n) !== !1 && Object.prototype.hasOwnProperty.call(n, "isPrototypeOf") !== !1;
}
var Lt = /* @__PURE__*/ new Set([
	"string",
	"number",
	"symbol"
]);
function Rt(e) {
	return e.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
function zt(e, t, n) {
	let r = new e._zod.constr(t ?? e._zod.def);
	return (!t || n?.parent) && (r._zod.parent = e), r;
}
function Bt(e) {
	let t = e;
	if (!t) return {};
	if (typeof t == "string") return { error: () => t };
	if (t?.message !== void 0) {
		if (t?.error !== void 0) throw Error("Cannot specify both `message` and `error` params");
		t.error = t.message;
	}
	return delete t.message, typeof t.error == "string" ? {
		...t,
		error: () => t.error
	} : t;
}
function Vt(e) {
	return Object.keys(e).filter((t) => e[t]._zod.optin !== void 0 && e[t]._zod.optout === "optional");
}
function Ht(e, t = 0) {
	if (e.aborted === !0) return !0;
	for (let n = t; n < e.issues.length; n++) if (e.issues[n]?.continue !== !0) return !0;
	return !1;
}
function Ut(e, t = 0) {
	if (e.aborted === !0) return !0;
	for (let n = t; n < e.issues.length; n++) if (e.issues[n]?.continue === !1) return !0;
	return !1;
}
function Wt(e, t) {
	return t.map((t) => {
		var n;
		return (n = t).path ?? (n.path = []), t.path.unshift(e), t;
	});
}
function Gt(e) {
	return typeof e == "string" ? e : e?.message;
}
function Kt(e) {
	let t = [];
	for (let n of e ?? []) {
		let e = n._zod.def;
		if (!/_(length|size)$|_equals$/.test(e.check)) break;
		let r = e.maximum ?? e.length ?? e.size;
		r >= 0 && t.push([r, n]);
	}
	return t;
}
function qt(e, t, n) {
	var r;
	for (let i = t; i < e.length; i++) (r = e[i]).schema ?? (r.schema = n);
}
function Jt(e, t, n) {
	var r;
	let i = e.inst?._zod?.traits;
	i?.has("$ZodType") && (i.has("$ZodCheck") ? (r = e).schema ?? (r.schema = e.inst) : e.schema = e.inst);
	let a = e.schema === e.inst ? void 0 : e.schema?._zod.def?.error, o = e.message ? e.message : Gt(e.inst?._zod.def?.error?.(e)) ?? Gt(a?.(e)) ?? Gt(t?.error?.(e)) ?? Gt(n.customError?.(e)) ?? Gt(n.localeError?.(e)) ?? "Invalid input", s = {};
	for (let t of Object.keys(e)) t !== "inst" && t !== "schema" && t !== "continue" && t !== "input" && t !== "__proto__" && (s[t] = e[t]);
	return s.path ??= [], s.message = o, t?.reportInput && (s.input = e.input), s;
}
function Yt(e, t) {
	for (let n in t) {
		let r = Object.getOwnPropertyDescriptor(t, n);
		r.get ? Object.defineProperty(e, n, {
			...r,
			enumerable: !1
		}) : Qt(e, n, r.value);
	}
}
function Xt(e, t, n, r = !0) {
	return Object.defineProperty(e, t, {
		configurable: !0,
		writable: !0,
		enumerable: r,
		value: n
	}), n;
}
function Zt(e, t, n) {
	return Xt(e, t, n, !1);
}
function Qt(e, t, n) {
	Object.defineProperty(e, t, {
		configurable: !0,
		get() {
			return this == null ? n : Xt(this, t, n.bind(this));
		},
		set(e) {
			Xt(this, t, e);
		}
	});
}
function $t(e, t) {
	let n = Object.getPrototypeOf(e);
	return t in n ? void 0 : n;
}
var en, tn = !1, nn = {
	configurable: !0,
	get() {
		tn = !0;
	}
};
function R(e, t, n) {
	let r = Object.getPrototypeOf(e._zod);
	t in r && en !== e._zod ? en = void 0 : (en = e._zod, Object.defineProperty(r, t, {
		configurable: !0,
		get() {
			Object.defineProperty(this, t, nn);
			let e = tn;
			tn = !1;
			try {
				let r = n(this);
				return tn ? delete this[t] : Object.defineProperty(this, t, {
					configurable: !0,
					writable: !0,
					value: r
				}), tn ||= e, r;
			} catch (n) {
				throw delete this[t], tn ||= e, n;
			}
		},
		set(e) {
			Object.defineProperty(this, t, {
				configurable: !0,
				writable: !0,
				value: e
			});
		}
	}));
}
function rn(e, t, n, r) {
	let i = $t(e, t);
	i && Object.defineProperty(i, t, {
		configurable: !0,
		get() {
			let e = {
				configurable: !0,
				writable: !0,
				enumerable: r,
				value: void 0
			};
			return Object.defineProperty(this, t, e), e.value = n(this), Object.defineProperty(this, t, e), e.value;
		},
		set(e) {
			Object.defineProperty(this, t, {
				configurable: !0,
				writable: !0,
				enumerable: r,
				value: e
			});
		}
	});
}
// node_modules/zod/v4/core/core.js
var an, on = {
	value: void 0,
	enumerable: !1
}, sn = "captureStackTrace" in Error ? Error : null;
function cn(e) {
	let t = sn;
	if (t) {
		let n = t.stackTraceLimit;
		if (typeof n == "number") {
			try {
				t.stackTraceLimit = 0;
			} catch {
				return sn = null, new e();
			}
			try {
				return new e();
			} finally {
				t.stackTraceLimit = n;
			}
		}
	}
	return new e();
}
/* @__NO_SIDE_EFFECTS__ */
function z(e, t, n, r) {
	let i = {};
	function a(e) {
		this.def = e, this.constr = d, this.traits = /* @__PURE__ */ new Set();
	}
	a.prototype = i;
	let o = n, s = o && /* @__PURE__ */ new WeakSet();
	function c(n, r) {
		if (!n._zod) {
			on.value = new a(r);
			try {
				Object.defineProperty(n, "_zod", on);
			} finally {
				on.value = void 0;
			}
		} else if (n._zod.traits.has(e)) return;
		if (n._zod.traits.add(e), t(n, r), s) {
			let e = Object.getPrototypeOf(n), t = n._zod.constr.prototype, r = e;
			for (; r && r !== t;) r = Object.getPrototypeOf(r);
			let i = r ?? e;
			s.has(i) || (s.add(i), Yt(i, o));
		}
		let i = d.prototype;
		for (let e in i) Object.prototype.hasOwnProperty.call(i, e) && (e in n || (n[e] = i[e].bind(n)));
	}
	let l = r?.Parent ?? Object;
	class u extends l {}
	Object.defineProperty(u, "name", { value: e });
	function d(e) {
		let t = r?.Parent ? cn(u) : this;
		c(t, e);
		let n = t._zod.deferred;
		if (n) {
			for (let e of n) e();
			t._zod.deferred = void 0;
		}
		let i = globalThis.__zod_globalConfig?.postProcessor;
		return i && i(t), t;
	}
	return Object.defineProperty(d, "init", { value: c }), Object.defineProperty(d, Symbol.hasInstance, { value: (t) => r?.Parent && t instanceof r.Parent ? !0 : t?._zod?.traits?.has(e) }), Object.defineProperty(d, "name", { value: e }), d;
}
var ln = class extends Error {
	constructor() {
		super("Encountered Promise during synchronous parse. Use .parseAsync() instead.");
	}
};
(an = globalThis).__zod_globalConfig ?? (an.__zod_globalConfig = {});
var un = globalThis.__zod_globalConfig;
function dn(e) {
	return e && Object.assign(un, e), un;
}
// node_modules/zod/v4/core/errors.js
function fn() {
	let e = this._zod;
	return e.message ??= JSON.stringify(e.def, kt, 2), e.message;
}
function pn(e) {
	this._zod.message = e;
}
var mn = {
	get: fn,
	set: pn,
	enumerable: !0,
	configurable: !0
}, hn = {
	value: void 0,
	enumerable: !1
}, gn = /* @__PURE__ */ new WeakSet([Object.prototype, Error.prototype]), _n = /* @__PURE__ */ z("$ZodError", (e, t) => {
	e.name = "$ZodError", hn.value = t, Object.defineProperty(e, "issues", hn), hn.value = void 0, Object.defineProperty(e, "message", mn);
	let n = Object.getPrototypeOf(e);
	gn.has(n) || (gn.add(n), Object.defineProperty(n, "toString", {
		configurable: !0,
		enumerable: !1,
		get() {
			let e = () => this.message;
			return Object.defineProperty(this, "toString", {
				value: e,
				configurable: !0,
				writable: !0
			}), e;
		},
		set(e) {
			Object.defineProperty(this, "toString", {
				value: e,
				configurable: !0,
				writable: !0
			});
		}
	}));
}, void 0, { Parent: Error }), vn = /* @__PURE__*/ ((e) => {
	let t = (n, r, i, a) => {
		let o = i ? {
			...i,
			async: !1
		} : { async: !1 }, s = n._zod.run({
			value: r,
			issues: []
		}, o);
		if (s instanceof Promise) throw new ln();
		if (s.issues.length) {
			let n = new ((a?.Err) ?? e)(s.issues.map((e) => Jt(e, o, dn())));
			throw Pt(n, a?.callee ?? t), n;
		}
		return s.value;
	};
	return t;
})(_n), yn = /* @__PURE__*/ ((e) => {
	let t = async (n, r, i, a) => {
		let o = i ? {
			...i,
			async: !0
		} : { async: !0 }, s = n._zod.run({
			value: r,
			issues: []
		}, o);
		if (s instanceof Promise && (s = await s), s.issues.length) {
			let n = new ((a?.Err) ?? e)(s.issues.map((e) => Jt(e, o, dn())));
			throw Pt(n, a?.callee ?? t), n;
		}
		return s.value;
	};
	return t;
})(_n), bn = /* @__PURE__*/ ((e) => (t, n, r) => {
	let i = r ? {
		...r,
		async: !1
	} : { async: !1 }, a = t._zod.run({
		value: n,
		issues: []
	}, i);
	if (a instanceof Promise) throw new ln();
	return a.issues.length ? xn(e, a.issues, i) : {
		success: !0,
		data: a.value
	};
})(_n);
function xn(e, t, n) {
	let r;
	return {
		success: !1,
		get error() {
			return r || (r = new e(t.map((e) => Jt(e, n, dn()))), t = void 0, n = void 0), r;
		},
		set error(e) {
			r = e, t = void 0, n = void 0;
		}
	};
}
var Sn = /* @__PURE__*/ ((e) => async (t, n, r) => {
	let i = r ? {
		...r,
		async: !0
	} : { async: !0 }, a = t._zod.run({
		value: n,
		issues: []
	}, i);
	return a instanceof Promise && (a = await a), a.issues.length ? xn(e, a.issues, i) : {
		success: !0,
		data: a.value
	};
})(_n), Cn = /^[\s\S]{0,}$/, wn = /^-?\d+(?:\.\d+)?$/, Tn = /^(?:true|false)$/i, En = /^undefined$/i, Dn = {
	major: 4,
	minor: 6,
	patch: 7
}, On = /*@__PURE__*/ z("$ZodType", (e, t) => {
	var n;
	e ??= {}, e._zod.def = t, e._zod.bag = e._zod.bag || {}, e._zod.version = Dn;
	let r = e._zod.def.checks, i = e._zod.traits.has("$ZodCheck") ? [e, ...r ?? []] : r?.length ? [...r] : [];
	for (let t of i) for (let n of t._zod.onattach) n(e);
	if (i.length === 0) (n = e._zod).deferred ?? (n.deferred = []), e._zod.deferred?.push(() => {
		e._zod.run = e._zod.parse;
	});
	else {
		let t = (t, n, r) => {
			if (t.memo) return t;
			let i = Ht(t), a;
			for (let o of n) {
				if (o._zod.def.when) {
					if (Ut(t) || !o._zod.def.when(t)) continue;
				} else if (i) continue;
				let n = t.issues.length, s = o._zod.check(t);
				if (s instanceof Promise && r?.async === !1) throw new ln();
				if (a || s instanceof Promise) a = (a ?? Promise.resolve()).then(async () => {
					await s, t.issues.length !== n && (qt(t.issues, n, e), i ||= Ht(t, n));
				});
				else {
					if (t.issues.length === n) continue;
					qt(t.issues, n, e), i ||= Ht(t, n);
				}
			}
			return a ? a.then(() => t) : t;
		}, n = (n, r, a) => {
			if (Ht(n)) return n.aborted = !0, n;
			let o = t(r, i, a);
			if (o instanceof Promise) {
				if (a.async === !1) throw new ln();
				return o.then((t) => e._zod.parse(t, a));
			}
			return e._zod.parse(o, a);
		};
		e._zod.run = (r, a) => {
			if (a.skipChecks) return e._zod.parse(r, a);
			if (a.direction === "backward") {
				let t = e._zod.parse({
					value: r.value,
					issues: []
				}, {
					...a,
					skipChecks: !0
				});
				return t instanceof Promise ? t.then((e) => n(e, r, a)) : n(t, r, a);
			}
			let o = e._zod.parse(r, a);
			if (o instanceof Promise) {
				if (a.async === !1) throw new ln();
				return o.then((e) => t(e, i, a));
			}
			return t(o, i, a);
		};
	}
}, {
	get "~standard"() {
		return Zt(this, "~standard", jn(this));
	},
	set "~standard"(e) {
		Xt(this, "~standard", e);
	}
}), kn = (e, t) => e.issues.length ? { issues: e.issues.map((e) => Jt(e, t, dn())) } : { value: e.value };
async function An(e, t) {
	let n = { async: !0 };
	return kn(await e._zod.run({
		value: t,
		issues: []
	}, n), n);
}
function jn(e) {
	return {
		validate: (t) => {
			let n = { async: !1 };
			try {
				let r = e._zod.run({
					value: t,
					issues: []
				}, n);
				if (!(r instanceof Promise)) return kn(r, n);
			} catch {}
			return An(e, t);
		},
		vendor: "zod",
		version: 1
	};
}
var Mn = /*@__PURE__*/ z("$ZodString", (e, t) => {
	On.init(e, t), e._zod.pattern = t.pattern ?? Cn, e._zod.parse = (n, r) => {
		if (t.coerce) try {
			n.value = String(n.value);
		} catch {}
		return typeof n.value == "string" || n.issues.push({
			expected: "string",
			code: "invalid_type",
			input: n.value,
			inst: e
		}), n;
	};
}), Nn = /*@__PURE__*/ z("$ZodNumber", (e, t) => {
	On.init(e, t), e._zod.pattern = wn, e._zod.parse = (n, r) => {
		if (t.coerce) try {
			n.value = Number(n.value);
		} catch {}
		let i = n.value;
		if (typeof i == "number" && !Number.isNaN(i) && Number.isFinite(i)) return n;
		let a = typeof i == "number" ? Number.isNaN(i) ? "NaN" : Number.isFinite(i) ? void 0 : String(i) : void 0;
		return n.issues.push({
			expected: "number",
			code: "invalid_type",
			input: i,
			inst: e,
			...a ? { received: a } : {}
		}), n;
	};
}), Pn = /*@__PURE__*/ z("$ZodBoolean", (e, t) => {
	On.init(e, t), e._zod.pattern = Tn, e._zod.parse = (n, r) => {
		if (t.coerce) try {
			n.value = !!n.value;
		} catch {}
		let i = n.value;
		return typeof i == "boolean" || n.issues.push({
			expected: "boolean",
			code: "invalid_type",
			input: i,
			inst: e
		}), n;
	};
}), Fn = /*@__PURE__*/ z("$ZodUndefined", (e, t) => {
	On.init(e, t), e._zod.pattern = En, e._zod.values = /* @__PURE__ */ new Set([void 0]), e._zod.parse = (t, n) => {
		let r = t.value;
		return r === void 0 || t.issues.push({
			expected: "undefined",
			code: "invalid_type",
			input: r,
			inst: e
		}), t;
	};
}), In = /*@__PURE__*/ z("$ZodUnknown", (e, t) => {
	On.init(e, t), e._zod.parse = (e) => e;
});
function Ln(e, t) {
	let n = Kt(e._zod.def.checks);
	if (!n.length) return;
	let r = Math.min(...n.map((e) => e[0])), i = e._zod.parse;
	e._zod.parse = (n, a) => {
		let o = t(n.value);
		if (o > r && !a?.skipChecks && a?.direction !== "backward") {
			for (let [t, r] of Kt(e._zod.def.checks)) if (o > t && r._zod.def.when(n)) {
				let t = n.issues.length;
				return r._zod.check(n), n.issues[t].continue = !1, qt(n.issues, t, e), n;
			}
		}
		return i(n, a);
	};
}
var Rn = (e) => Array.isArray(e) ? e.length : -1;
function zn(e, t, n) {
	e.issues.length && t.issues.push(...Wt(n, e.issues)), t.value[n] = e.value;
}
var Bn = /*@__PURE__*/ z("$ZodArray", (e, t) => {
	On.init(e, t);
	let n = un.memoizer;
	n?.attach(e), e._zod.parse = (r, i) => {
		let a = r.value;
		if (!Array.isArray(a)) return r.issues.push({
			expected: "array",
			code: "invalid_type",
			input: a,
			inst: e
		}), r;
		r.value = n ? n.alloc(e, r, Array(a.length), i) : Array(a.length);
		let o = [], s = i?.abortEarly;
		for (let e = 0; e < a.length; e++) {
			let n = a[e], c = t.element._zod.run({
				value: n,
				issues: []
			}, i);
			if (c instanceof Promise) o.push(c.then((t) => zn(t, r, e)));
			else if (zn(c, r, e), s && c.issues.length !== 0 && Ht(c)) break;
		}
		return o.length ? Promise.all(o).then(() => r) : r;
	}, Ln(e, Rn);
});
function Vn(e, t, n, r, i, a) {
	let o = n in r, s = a === "optional";
	if (o || !s || i !== "optional") {
		if (e.issues.length) {
			if (i !== void 0 && s && !o) return;
			t.issues.push(...Wt(n, e.issues));
		}
		!o && i === void 0 ? e.issues.length || t.issues.push({
			code: "invalid_type",
			expected: "nonoptional",
			input: void 0,
			path: [n]
		}) : e.value === void 0 ? (o || i === "defaulted" && !s) && (t.value[n] = void 0) : t.value[n] = e.value;
	}
}
var Hn = [];
function Un(e) {
	let t = Object.keys(e.shape), n = Object.getOwnPropertySymbols(e.shape), r = n.length ? n : Hn, i = r.length ? [...t, ...r] : t;
	for (let t of i) if (!e.shape?.[t]?._zod?.traits?.has("$ZodType")) throw Error(`Invalid element at key "${String(t)}": expected a Zod schema`);
	let a = Vt(e.shape);
	return {
		...e,
		allKeys: i,
		symbolKeys: r,
		keySet: new Set(t),
		numKeys: t.length,
		optionalKeys: new Set(a)
	};
}
function Wn(e, t, n, r, i, a, o) {
	let s = [], c = i.keySet, l = i.catchall._zod, u = l.def.type, d = l.optin, f = l.optout, p = 0;
	for (let i in t) {
		if (o && n.issues.length !== p) {
			if (Ht(n, p)) break;
			p = n.issues.length;
		}
		if (c.has(i)) continue;
		if (i === "__proto__") {
			u === "never" && s.push(i);
			continue;
		}
		if (u === "never") {
			s.push(i);
			continue;
		}
		let a = l.run({
			value: t[i],
			issues: []
		}, r);
		a instanceof Promise ? e.push(a.then((e) => Vn(e, n, i, t, d, f))) : Vn(a, n, i, t, d, f);
	}
	return s.length && n.issues.push({
		code: "unrecognized_keys",
		keys: s,
		input: t,
		inst: a,
		continue: !0
	}), e.length ? Promise.all(e).then(() => n) : n;
}
var Gn = /*@__PURE__*/ z("$ZodObject", (e, t) => {
	On.init(e, t);
	let n = Object.getOwnPropertyDescriptor(t, "shape"), r = n?.get ? n.get.raw : t.shape ?? {};
	if (r) {
		let e = () => {
			let n = { ...r };
			return Object.defineProperty(t, "shape", { value: n }), e.raw = n, n;
		};
		e.raw = r, Object.defineProperty(t, "shape", { get: e });
	}
	let i = jt(() => Un(t));
	R(e, "propValues", (e) => {
		let t = e.def.shape, n = {};
		for (let e in t) {
			let r = t[e]._zod;
			if (r.values) {
				Object.prototype.hasOwnProperty.call(n, e) || Nt(n, e, /* @__PURE__ */ new Set());
				for (let t of r.values) n[e].add(t);
				r.optin !== void 0 && n[e].add(void 0);
			}
		}
		return n;
	});
	let a = Ft, o = t.catchall, s, c = un.memoizer;
	c?.attach(e), e._zod.parse = (t, n) => {
		s ??= i.value;
		let r = t.value;
		if (!a(r)) return t.issues.push({
			expected: "object",
			code: "invalid_type",
			input: r,
			inst: e
		}), t;
		t.value = c ? c.alloc(e, t, {}, n) : {};
		let l = [], u = s.shape, d = n?.abortEarly, f = t.issues.length;
		for (let e of s.allKeys) {
			if (d && t.issues.length !== f) {
				if (Ht(t, f)) break;
				f = t.issues.length;
			}
			if (e === "__proto__") continue;
			let i = u[e], a = i._zod.optin, o = i._zod.optout, s = i._zod.run({
				value: r[e],
				issues: []
			}, n);
			s instanceof Promise ? l.push(s.then((n) => Vn(n, t, e, r, a, o))) : Vn(s, t, e, r, a, o);
		}
		return o ? Wn(l, r, t, n, i.value, e, d === !0) : l.length ? Promise.all(l).then(() => t) : t;
	};
});
function Kn(e, t, n, r) {
	for (let n of e) if (n.issues.length === 0) return t.value = n.value, t;
	let i = e.filter((e) => !Ht(e));
	return i.length === 1 ? (t.value = i[0].value, i[0]) : (t.issues.push({
		code: "invalid_union",
		input: t.value,
		inst: n,
		errors: e.map((e) => e.issues.map((e) => Jt(e, r, dn())))
	}), t);
}
var qn = /*@__PURE__*/ z("$ZodUnion", (e, t) => {
	On.init(e, t), R(e, "optin", (e) => e.def.options.some((e) => e._zod.optin === "defaulted") ? "defaulted" : e.def.options.some((e) => e._zod.optin !== void 0) ? "optional" : void 0), R(e, "optout", (e) => e.def.options.some((e) => e._zod.optout === "optional") ? "optional" : void 0), R(e, "values", (e) => {
		if (e.def.options.every((e) => e._zod.values)) return new Set(e.def.options.flatMap((e) => Array.from(e._zod.values)));
	}), R(e, "pattern", (e) => {
		if (e.def.options.every((e) => e._zod.pattern)) {
			let t = e.def.options.map((e) => e._zod.pattern);
			return RegExp(`^(${t.map((e) => Mt(e.source)).join("|")})$`);
		}
	});
	let n = t.options.length === 1 ? t.options[0]._zod.run : null;
	e._zod.parse = (r, i) => {
		if (n) return n(r, i);
		let a = !1, o = [];
		for (let e of t.options) {
			let t = e._zod.run({
				value: r.value,
				issues: []
			}, i);
			if (t instanceof Promise) o.push(t), a = !0;
			else {
				if (t.issues.length === 0) return t;
				o.push(t);
			}
		}
		return a ? Promise.all(o).then((t) => Kn(t, r, e, i)) : Kn(o, r, e, i);
	};
}), Jn = /*@__PURE__*/ z("$ZodRecord", (e, t) => {
	On.init(e, t);
	let n = un.memoizer;
	n?.attach(e), e._zod.parse = (r, i) => {
		let a = r.value;
		if (!It(a)) return r.issues.push({
			expected: "record",
			code: "invalid_type",
			input: a,
			inst: e
		}), r;
		let o = [], s = t.keyType._zod.values;
		if (s && !t.partial) {
			r.value = n ? n.alloc(e, r, {}, i) : {};
			let c = /* @__PURE__ */ new Set();
			for (let n of s) if (typeof n == "string" || typeof n == "number" || typeof n == "symbol") {
				if (c.add(typeof n == "number" ? n.toString() : n), n === "__proto__") continue;
				let s = t.keyType._zod.run({
					value: n,
					issues: []
				}, i);
				if (s instanceof Promise) throw Error("Async schemas not supported in object keys currently");
				if (s.issues.length) {
					r.issues.push({
						code: "invalid_key",
						origin: "record",
						issues: s.issues.map((e) => Jt(e, i, dn())),
						input: n,
						path: [n],
						inst: e
					});
					continue;
				}
				let l = s.value;
				if (l === "__proto__") continue;
				let u = t.valueType._zod.run({
					value: a[n],
					issues: []
				}, i);
				u instanceof Promise ? o.push(u.then((e) => {
					e.issues.length && r.issues.push(...Wt(n, e.issues)), r.value[l] = e.value;
				})) : (u.issues.length && r.issues.push(...Wt(n, u.issues)), r.value[l] = u.value);
			}
			let l;
			for (let e in a) if (!c.has(e)) {
				if (t.mode === "loose") {
					if (e === "__proto__") continue;
					r.value[e] = a[e];
				} else l ??= [], l.push(e);
			}
			l && l.length > 0 && r.issues.push({
				code: "unrecognized_keys",
				input: a,
				inst: e,
				keys: l,
				continue: !0
			});
		} else {
			r.value = n ? n.alloc(e, r, {}, i) : {};
			let c;
			for (let n of Reflect.ownKeys(a)) {
				if (n === "__proto__" || !Object.prototype.propertyIsEnumerable.call(a, n)) continue;
				let l = t.keyType._zod.run({
					value: n,
					issues: []
				}, i);
				if (l instanceof Promise) throw Error("Async schemas not supported in object keys currently");
				if (typeof n == "string" && wn.test(n) && l.issues.length) {
					let e = t.keyType._zod.run({
						value: Number(n),
						issues: []
					}, i);
					if (e instanceof Promise) throw Error("Async schemas not supported in object keys currently");
					e.issues.length === 0 && (l = e);
				}
				if (l.issues.length) {
					t.mode === "loose" ? r.value[n] = a[n] : s ? (c ??= [], c.push(n)) : r.issues.push({
						code: "invalid_key",
						origin: "record",
						issues: l.issues.map((e) => Jt(e, i, dn())),
						input: n,
						path: [n],
						inst: e
					});
					continue;
				}
				let u = l.value;
				if (u === "__proto__") continue;
				let d = t.valueType._zod.run({
					value: a[n],
					issues: []
				}, i);
				d instanceof Promise ? o.push(d.then((e) => {
					e.issues.length && r.issues.push(...Wt(n, e.issues)), r.value[u] = e.value;
				})) : (d.issues.length && r.issues.push(...Wt(n, d.issues)), r.value[u] = d.value);
			}
			c && c.length > 0 && r.issues.push({
				code: "unrecognized_keys",
				input: a,
				inst: e,
				keys: c,
				continue: !0
			});
		}
		return o.length ? Promise.all(o).then(() => r) : r;
	};
}), Yn = /*@__PURE__*/ z("$ZodEnum", (e, t) => {
	On.init(e, t);
	let n = Ot(t.entries), r = new Set(n);
	e._zod.values = r, R(e, "pattern", (e) => {
		let t = Ot(e.def.entries).filter((e) => Lt.has(typeof e));
		return RegExp(t.length ? `^(${t.map((e) => Rt(e.toString())).join("|")})$` : "^[^\\s\\S]$");
	}), e._zod.parse = (t, i) => {
		let a = t.value;
		return r.has(a) || t.issues.push({
			code: "invalid_value",
			values: n,
			input: a,
			inst: e
		}), t;
	};
}), Xn = /*@__PURE__*/ z("$ZodLiteral", (e, t) => {
	On.init(e, t);
	let n = new Set(t.values);
	e._zod.values = n, R(e, "pattern", (e) => {
		let t = e.def.values;
		return RegExp(t.length ? `^(${t.map((e) => typeof e == "string" ? Rt(e) : e ? Rt(e.toString()) : String(e)).join("|")})$` : "^[^\\s\\S]$");
	}), e._zod.parse = (r, i) => {
		let a = r.value;
		return n.has(a) || r.issues.push({
			code: "invalid_value",
			values: t.values,
			input: a,
			inst: e
		}), r;
	};
});
function Zn(e, t) {
	return e.value = t.issues.length ? void 0 : t.value, e;
}
var Qn = /*@__PURE__*/ z("$ZodOptional", (e, t) => {
	On.init(e, t), R(e, "optin", (e) => e.def.innerType._zod.optin === "defaulted" ? "defaulted" : "optional"), e._zod.optout = "optional", R(e, "values", (e) => {
		let t = e.def.innerType._zod.values;
		return t ? /* @__PURE__ */ new Set([...t, void 0]) : void 0;
	}), R(e, "pattern", (e) => {
		let t = e.def.innerType._zod.pattern;
		return t ? RegExp(`^(${Mt(t.source)})?$`) : void 0;
	}), e._zod.parse = (e, n) => {
		if (e.value === void 0) {
			if (t.innerType._zod.optin !== "defaulted") return e;
			let r = t.innerType._zod.run({
				value: e.value,
				issues: []
			}, n);
			return r instanceof Promise ? r.then((t) => Zn(e, t)) : Zn(e, r);
		}
		return t.innerType._zod.run(e, n);
	};
}), $n = /*@__PURE__*/ z("$ZodNullable", (e, t) => {
	On.init(e, t), R(e, "optin", (e) => e.def.innerType._zod.optin), R(e, "optout", (e) => e.def.innerType._zod.optout), R(e, "pattern", (e) => {
		let t = e.def.innerType._zod.pattern;
		return t ? RegExp(`^(${Mt(t.source)}|null)$`) : void 0;
	}), R(e, "values", (e) => e.def.innerType._zod.values ? /* @__PURE__ */ new Set([...e.def.innerType._zod.values, null]) : void 0), e._zod.parse = (e, n) => e.value === null ? e : t.innerType._zod.run(e, n);
});
// node_modules/zod/v4/core/api.js
function er(e) {
	return e.checks &&= [...e.checks], e;
}
// @__NO_SIDE_EFFECTS__
function tr(e, t) {
	return new e(er({
		type: "string",
		...Bt(t)
	}));
}
// @__NO_SIDE_EFFECTS__
function nr(e, t) {
	return new e(er({
		type: "number",
		checks: [],
		...Bt(t)
	}));
}
// @__NO_SIDE_EFFECTS__
function rr(e, t) {
	return new e({
		type: "boolean",
		...Bt(t)
	});
}
// @__NO_SIDE_EFFECTS__
function ir(e, t) {
	return new e({
		type: "undefined",
		...Bt(t)
	});
}
// @__NO_SIDE_EFFECTS__
function ar(e) {
	return new e({ type: "unknown" });
}
// node_modules/zod/v4/mini/schemas.js
var or = /*@__PURE__*/ z("ZodMiniType", (e, t) => {
	if (!e._zod) throw Error("Uninitialized schema in ZodMiniType.");
	On.init(e, t), e.def = t, e.type = t.type;
}, {
	get with() {
		return this.check;
	},
	set with(e) {
		Xt(this, "with", e);
	},
	parse(e, t) {
		return vn(this, e, t, { callee: this.parse });
	},
	parseAsync(e, t) {
		return yn(this, e, t, { callee: this.parseAsync });
	},
	safeParse(e, t) {
		return bn(this, e, t);
	},
	safeParseAsync(e, t) {
		return Sn(this, e, t);
	},
	check(...e) {
		let t = this.def;
		return this.clone({
			...t,
			checks: [...t.checks ?? [], ...e.map((e) => typeof e == "function" ? { _zod: {
				check: e,
				def: { check: "custom" },
				onattach: []
			} } : e)]
		}, { parent: !0 });
	},
	clone(e, t) {
		return zt(this, e, t);
	},
	brand() {
		return this;
	},
	register(e, t) {
		return e.add(this, t), this;
	},
	apply(e, ...t) {
		return t.length === 0 ? e(this) : e(this, ...t);
	}
}), sr = /*@__PURE__*/ z("ZodMiniString", (e, t) => {
	Mn.init(e, t), or.init(e, t);
});
// @__NO_SIDE_EFFECTS__
function B(e) {
	return /* @__PURE__ */ tr(sr, e);
}
var cr = /*@__PURE__*/ z("ZodMiniNumber", (e, t) => {
	Nn.init(e, t), or.init(e, t);
});
// @__NO_SIDE_EFFECTS__
function lr(e) {
	return /* @__PURE__ */ nr(cr, e);
}
var ur = /*@__PURE__*/ z("ZodMiniBoolean", (e, t) => {
	Pn.init(e, t), or.init(e, t);
});
// @__NO_SIDE_EFFECTS__
function dr(e) {
	return /* @__PURE__ */ rr(ur, e);
}
var fr = /*@__PURE__*/ z("ZodMiniUndefined", (e, t) => {
	Fn.init(e, t), or.init(e, t);
});
// @__NO_SIDE_EFFECTS__
function pr(e) {
	return /* @__PURE__ */ ir(fr, e);
}
var mr = /*@__PURE__*/ z("ZodMiniUnknown", (e, t) => {
	In.init(e, t), or.init(e, t);
});
// @__NO_SIDE_EFFECTS__
function hr() {
	return /* @__PURE__ */ ar(mr);
}
var gr = /*@__PURE__*/ z("ZodMiniArray", (e, t) => {
	Bn.init(e, t), or.init(e, t);
});
// @__NO_SIDE_EFFECTS__
function _r(e, t) {
	return new gr({
		type: "array",
		element: e,
		...Bt(t)
	});
}
var vr = /*@__PURE__*/ z("ZodMiniObject", (e, t) => {
	Gn.init(e, t), or.init(e, t), rn(e, "shape", (e) => e._zod.def.shape, !1);
});
// @__NO_SIDE_EFFECTS__
function yr(e, t) {
	return new vr({
		type: "object",
		shape: e ?? {},
		...Bt(t)
	});
}
// @__NO_SIDE_EFFECTS__
function V(e, t) {
	return new vr({
		type: "object",
		shape: e,
		catchall: /* @__PURE__ */ hr(),
		...Bt(t)
	});
}
var br = /*@__PURE__*/ z("ZodMiniUnion", (e, t) => {
	qn.init(e, t), or.init(e, t);
});
// @__NO_SIDE_EFFECTS__
function xr(e, t) {
	return new br({
		type: "union",
		options: e,
		...Bt(t)
	});
}
var Sr = /*@__PURE__*/ z("ZodMiniRecord", (e, t) => {
	Jn.init(e, t), or.init(e, t);
});
// @__NO_SIDE_EFFECTS__
function Cr(e, t, n) {
	return !t || !t._zod ? new Sr({
		type: "record",
		keyType: /* @__PURE__ */ B(),
		valueType: e,
		...Bt(t)
	}) : new Sr({
		type: "record",
		keyType: e,
		valueType: t,
		...Bt(n)
	});
}
var wr = /*@__PURE__*/ z("ZodMiniEnum", (e, t) => {
	Yn.init(e, t), or.init(e, t), e.options = [...e._zod.values];
});
// @__NO_SIDE_EFFECTS__
function H(e, t) {
	return new wr({
		type: "enum",
		entries: Array.isArray(e) ? Object.fromEntries(e.map((e) => [e, e])) : e,
		...Bt(t)
	});
}
var Tr = /*@__PURE__*/ z("ZodMiniLiteral", (e, t) => {
	Xn.init(e, t), or.init(e, t);
});
// @__NO_SIDE_EFFECTS__
function Er(e, t) {
	return new Tr({
		type: "literal",
		values: Array.isArray(e) ? e : [e],
		...Bt(t)
	});
}
var Dr = /*@__PURE__*/ z("ZodMiniOptional", (e, t) => {
	Qn.init(e, t), or.init(e, t);
});
// @__NO_SIDE_EFFECTS__
function U(e) {
	return new Dr({
		type: "optional",
		innerType: e
	});
}
var Or = /*@__PURE__*/ z("ZodMiniNullable", (e, t) => {
	$n.init(e, t), or.init(e, t);
});
// @__NO_SIDE_EFFECTS__
function kr(e) {
	return new Or({
		type: "nullable",
		innerType: e
	});
}
// shared/ledger-events.ts
var Ar = /* @__PURE__ */ hr(), jr = /* @__PURE__ */ xr([/* @__PURE__ */ B(), /* @__PURE__ */ V({
	$kind: /* @__PURE__ */ Er("truncated"),
	reason: /* @__PURE__ */ B(),
	length: /* @__PURE__ */ U(/* @__PURE__ */ lr()),
	preview: /* @__PURE__ */ U(/* @__PURE__ */ B())
})]), Mr = /* @__PURE__ */ H([
	"egress",
	"destructive",
	"durable_write_back"
]), Nr = /* @__PURE__ */ H([
	"adapter",
	"custom-admission",
	"aggregate"
]), Pr = /* @__PURE__ */ H([
	"recursion-depth",
	"executor-steps",
	"cost",
	"natural-executions",
	"dispatches",
	"operations",
	"operations-per-response"
]), Fr = /* @__PURE__ */ H([
	"not-granted",
	"invalid-request",
	"footprint-outside-policy",
	"audit-store-failed",
	"run-closed"
]), Ir = {
	sequence: /* @__PURE__ */ lr(),
	eventId: /* @__PURE__ */ B(),
	runId: /* @__PURE__ */ B(),
	subjectId: /* @__PURE__ */ B(),
	parentId: /* @__PURE__ */ U(/* @__PURE__ */ B()),
	at: /* @__PURE__ */ lr()
}, Lr = /* @__PURE__ */ U(/* @__PURE__ */ pr());
function Rr(e, t, n) {
	return /* @__PURE__ */ yr({
		...Ir,
		kind: /* @__PURE__ */ Er(e),
		status: t,
		data: n
	});
}
var zr = /* @__PURE__ */ V({
	label: /* @__PURE__ */ U(jr),
	grant: /* @__PURE__ */ V({
		capabilities: /* @__PURE__ */ _r(/* @__PURE__ */ V({
			name: /* @__PURE__ */ B(),
			footprint: /* @__PURE__ */ _r(Mr)
		})),
		references: /* @__PURE__ */ _r(/* @__PURE__ */ B())
	}),
	platformPolicy: /* @__PURE__ */ _r(Mr),
	effectivePolicy: /* @__PURE__ */ _r(Mr),
	allocation: /* @__PURE__ */ Cr(/* @__PURE__ */ B(), /* @__PURE__ */ lr()),
	executorStepObservation: Nr,
	confinementIdentity: /* @__PURE__ */ kr(/* @__PURE__ */ B()),
	auditStoreDurable: /* @__PURE__ */ kr(/* @__PURE__ */ dr())
}), Br = /* @__PURE__ */ V({
	request: /* @__PURE__ */ V({
		operationId: /* @__PURE__ */ B(),
		kind: /* @__PURE__ */ B(),
		stepId: /* @__PURE__ */ B(),
		executionId: /* @__PURE__ */ B(),
		runId: /* @__PURE__ */ B(),
		expression: /* @__PURE__ */ U(jr),
		targetPath: /* @__PURE__ */ U(/* @__PURE__ */ B()),
		toolName: /* @__PURE__ */ U(/* @__PURE__ */ B()),
		arguments: /* @__PURE__ */ U(Ar),
		outcomeKind: /* @__PURE__ */ U(/* @__PURE__ */ B())
	}),
	status: /* @__PURE__ */ H([
		"completed",
		"failed",
		"rejected",
		"aborted",
		"skipped"
	]),
	rejection: /* @__PURE__ */ U(/* @__PURE__ */ V({
		reason: jr,
		guidance: /* @__PURE__ */ U(jr)
	})),
	abortReason: /* @__PURE__ */ U(jr),
	failure: /* @__PURE__ */ U(/* @__PURE__ */ V({
		errorClass: /* @__PURE__ */ B(),
		message: jr
	})),
	blockedByOperationId: /* @__PURE__ */ U(/* @__PURE__ */ B()),
	sequence: /* @__PURE__ */ lr(),
	startedAt: /* @__PURE__ */ lr(),
	durationMs: /* @__PURE__ */ lr()
}), Vr = /* @__PURE__ */ V({
	stepId: /* @__PURE__ */ U(/* @__PURE__ */ B()),
	outcomeKind: /* @__PURE__ */ U(/* @__PURE__ */ B()),
	proposed: /* @__PURE__ */ U(Ar),
	committed: /* @__PURE__ */ U(Ar),
	rewritten: /* @__PURE__ */ U(/* @__PURE__ */ dr()),
	failedOperations: /* @__PURE__ */ U(/* @__PURE__ */ _r(/* @__PURE__ */ B())),
	failure: /* @__PURE__ */ U(/* @__PURE__ */ B()),
	error: /* @__PURE__ */ U(Ar),
	reason: /* @__PURE__ */ U(jr)
}), Hr = /* @__PURE__ */ V({
	intent: /* @__PURE__ */ B(),
	language: /* @__PURE__ */ B(),
	definitionId: /* @__PURE__ */ B(),
	materializationId: /* @__PURE__ */ B(),
	originalDefinitionId: /* @__PURE__ */ B(),
	source: jr,
	dependencies: /* @__PURE__ */ _r(Ar),
	confinementIdentity: /* @__PURE__ */ kr(/* @__PURE__ */ B())
}), Ur = /* @__PURE__ */ V({
	export: /* @__PURE__ */ B(),
	definitionId: /* @__PURE__ */ B(),
	materializationId: /* @__PURE__ */ B(),
	originalDefinitionId: /* @__PURE__ */ B(),
	arguments: Ar,
	confinementIdentity: /* @__PURE__ */ U(/* @__PURE__ */ kr(/* @__PURE__ */ B()))
}), Wr = [
	Rr("run.entry", Lr, zr),
	Rr("run.end", /* @__PURE__ */ H([
		"completed",
		"failed",
		"terminated"
	]), /* @__PURE__ */ V({
		result: /* @__PURE__ */ U(Ar),
		error: /* @__PURE__ */ U(Ar),
		reason: /* @__PURE__ */ U(jr)
	})),
	Rr("execution.start", Lr, /* @__PURE__ */ V({
		stepId: /* @__PURE__ */ B(),
		program: /* @__PURE__ */ U(jr),
		inputBindings: /* @__PURE__ */ U(Ar)
	})),
	Rr("execution.end", /* @__PURE__ */ H([
		"completed",
		"raised",
		"failed",
		"aborted",
		"terminated"
	]), Vr),
	Rr("operation", /* @__PURE__ */ H([
		"completed",
		"failed",
		"rejected",
		"aborted",
		"skipped"
	]), Br),
	Rr("capability.call", /* @__PURE__ */ H(["completed", "failed"]), /* @__PURE__ */ V({
		capability: /* @__PURE__ */ B(),
		footprint: /* @__PURE__ */ _r(Mr),
		arguments: Ar,
		result: /* @__PURE__ */ U(Ar),
		error: /* @__PURE__ */ U(Ar)
	})),
	Rr("capability.refused", Fr, /* @__PURE__ */ V({
		capability: /* @__PURE__ */ B(),
		reason: Fr,
		detail: jr
	})),
	Rr("dispatch.start", /* @__PURE__ */ H(["materialization", "invocation"]), /* @__PURE__ */ xr([Hr, Ur])),
	Rr("dispatch.end", /* @__PURE__ */ H([
		"completed",
		"failed",
		"rejected",
		"terminated"
	]), /* @__PURE__ */ V({
		exports: /* @__PURE__ */ U(/* @__PURE__ */ _r(/* @__PURE__ */ B())),
		materializationId: /* @__PURE__ */ U(/* @__PURE__ */ B()),
		result: /* @__PURE__ */ U(Ar),
		error: /* @__PURE__ */ U(Ar)
	})),
	Rr("trace.anomaly", /* @__PURE__ */ B(), /* @__PURE__ */ V({ anomalyKind: /* @__PURE__ */ B() })),
	Rr("allocation.exhausted", Pr, /* @__PURE__ */ V({ resource: Pr })),
	Rr("part.event", /* @__PURE__ */ B(), /* @__PURE__ */ V({
		part: /* @__PURE__ */ B(),
		event: /* @__PURE__ */ V({ kind: /* @__PURE__ */ B() })
	}))
];
[...Wr];
var Gr = /* @__PURE__ */ H(Wr.map((e) => e.shape.kind.def.values[0])), Kr = /* @__PURE__ */ yr({
	...Ir,
	kind: Gr,
	status: /* @__PURE__ */ U(/* @__PURE__ */ B())
}), qr = /* @__PURE__ */ V({
	operationId: /* @__PURE__ */ B(),
	kind: /* @__PURE__ */ B(),
	status: /* @__PURE__ */ xr([/* @__PURE__ */ H([
		"completed",
		"failed",
		"rejected",
		"aborted",
		"skipped"
	]), /* @__PURE__ */ H(["running", "pending"])]),
	expression: /* @__PURE__ */ U(/* @__PURE__ */ B()),
	targetPath: /* @__PURE__ */ U(/* @__PURE__ */ B()),
	toolName: /* @__PURE__ */ U(/* @__PURE__ */ B()),
	rejection: /* @__PURE__ */ U(/* @__PURE__ */ V({
		reason: /* @__PURE__ */ B(),
		guidance: /* @__PURE__ */ U(/* @__PURE__ */ B())
	})),
	abortReason: /* @__PURE__ */ U(/* @__PURE__ */ B()),
	failure: /* @__PURE__ */ U(/* @__PURE__ */ V({
		errorClass: /* @__PURE__ */ B(),
		message: /* @__PURE__ */ B()
	})),
	blockedByOperationId: /* @__PURE__ */ U(/* @__PURE__ */ B())
}), Jr = /* @__PURE__ */ V({
	proposed: /* @__PURE__ */ Cr(/* @__PURE__ */ B(), /* @__PURE__ */ hr()),
	committed: /* @__PURE__ */ Cr(/* @__PURE__ */ B(), /* @__PURE__ */ hr()),
	rewritten: /* @__PURE__ */ dr()
}), Yr = /* @__PURE__ */ V({
	executionId: /* @__PURE__ */ B(),
	stepId: /* @__PURE__ */ B(),
	parentExecutionId: /* @__PURE__ */ U(/* @__PURE__ */ B()),
	status: /* @__PURE__ */ H([
		"running",
		"completed",
		"raised",
		"failed",
		"aborted"
	]),
	operations: /* @__PURE__ */ _r(qr),
	commit: /* @__PURE__ */ U(Jr),
	error: /* @__PURE__ */ U(/* @__PURE__ */ V({
		name: /* @__PURE__ */ B(),
		message: /* @__PURE__ */ B()
	}))
}), Xr = /* @__PURE__ */ V({
	runId: /* @__PURE__ */ B(),
	functionName: /* @__PURE__ */ B(),
	status: /* @__PURE__ */ H([
		"running",
		"completed",
		"failed"
	]),
	executions: /* @__PURE__ */ _r(Yr)
}), Zr = /* @__PURE__ */ V({
	anomalyKind: /* @__PURE__ */ B(),
	message: /* @__PURE__ */ B(),
	runId: /* @__PURE__ */ U(/* @__PURE__ */ B()),
	executionId: /* @__PURE__ */ U(/* @__PURE__ */ B())
}), Qr = /* @__PURE__ */ V({
	resource: /* @__PURE__ */ B(),
	runId: /* @__PURE__ */ B()
}), $r = /* @__PURE__ */ V({
	sequence: Kr.shape.sequence,
	runId: Kr.shape.runId,
	kind: Gr,
	status: /* @__PURE__ */ U(/* @__PURE__ */ B()),
	summary: /* @__PURE__ */ B(),
	parentId: /* @__PURE__ */ U(/* @__PURE__ */ B()),
	at: /* @__PURE__ */ xr([/* @__PURE__ */ B(), /* @__PURE__ */ lr()])
}), ei = /* @__PURE__ */ V({
	runId: /* @__PURE__ */ U(/* @__PURE__ */ B()),
	entries: /* @__PURE__ */ _r($r)
}), ti = /* @__PURE__ */ V({
	requestId: /* @__PURE__ */ B(),
	operation: qr,
	prompt: /* @__PURE__ */ B()
}), ni = /\x1b\[([0-9;?]*)([A-Za-z])|\x1b\][^\x07]*\x07|\x1b[@-Z\\-_]/g;
function ri(e) {
	let t = document.createDocumentFragment(), n = {
		bold: !1,
		underline: !1
	}, r = 0, i = (e) => {
		if (!e) return;
		if (n.fg === void 0 && n.bg === void 0 && !n.bold && !n.underline) {
			t.appendChild(document.createTextNode(e));
			return;
		}
		let r = document.createElement("span"), i = [];
		n.fg !== void 0 && i.push(`ansi-fg-${n.fg}`), n.bg !== void 0 && i.push(`ansi-bg-${n.bg}`), n.bold && i.push("ansi-bold"), n.underline && i.push("ansi-underline"), r.className = i.join(" "), r.textContent = e, t.appendChild(r);
	};
	for (let t of e.matchAll(ni)) i(e.slice(r, t.index)), r = (t.index ?? 0) + t[0].length, t[2] === "m" && (n = ii(n, t[1] ?? ""));
	return i(e.slice(r)), t;
}
function ii(e, t) {
	let n = { ...e }, r = t === "" ? [0] : t.split(";").map((e) => Number(e) || 0);
	for (let e = 0; e < r.length; e++) {
		let t = r[e];
		t === 0 ? Object.assign(n, {
			fg: void 0,
			bg: void 0,
			bold: !1,
			underline: !1
		}) : t === 1 ? n.bold = !0 : t === 4 ? n.underline = !0 : t === 22 ? n.bold = !1 : t === 24 ? n.underline = !1 : t >= 30 && t <= 37 ? n.fg = t - 30 : t >= 90 && t <= 97 ? n.fg = t - 90 + 8 : t === 39 ? n.fg = void 0 : t >= 40 && t <= 47 ? n.bg = t - 40 : t >= 100 && t <= 107 ? n.bg = t - 100 + 8 : t === 49 ? n.bg = void 0 : (t === 38 || t === 48) && (e += r[e + 1] === 5 ? 2 : 4);
	}
	return n;
}
// web/src/dom.ts
function W(e, t = {}, ...n) {
	let r = document.createElement(e);
	for (let [e, n] of Object.entries(t)) n != null && n !== !1 && (e === "class" ? r.className = String(n) : e === "text" ? r.textContent = String(n) : r.setAttribute(e, n === !0 ? "" : String(n)));
	return ai(r, ...n), r;
}
function ai(e, ...t) {
	for (let n of t) n != null && n !== !1 && e.appendChild(typeof n == "string" ? document.createTextNode(n) : n);
}
function oi(e, t, n = {}) {
	let r = W("button", {
		type: "button",
		"aria-label": e,
		title: e,
		...n
	});
	return r.childNodes.length === 0 && !n.text && (r.textContent = e), r.addEventListener("click", t), r;
}
// node_modules/marked/lib/marked.esm.js
function si() {
	return {
		async: !1,
		breaks: !1,
		extensions: null,
		gfm: !0,
		hooks: null,
		pedantic: !1,
		renderer: null,
		silent: !1,
		tokenizer: null,
		walkTokens: null
	};
}
var ci = si();
function li(e) {
	ci = e;
}
var ui = { exec: () => null };
function di(e) {
	let t = [];
	return (n) => {
		let r = Math.max(0, Math.min(3, n - 1)), i = t[r];
		return i || (i = e(r), t[r] = i), i;
	};
}
function G(e, t = "") {
	let n = typeof e == "string" ? e : e.source, r = {
		replace: (e, t) => {
			let i = typeof t == "string" ? t : t.source;
			return i = i.replace(K.caret, "$1"), n = n.replace(e, i), r;
		},
		getRegex: () => new RegExp(n, t)
	};
	return r;
}
var fi = ((e = "") => {
	try {
		return !!RegExp("(?<=1)(?<!1)" + e);
	} catch {
		return !1;
	}
})(), K = {
	codeRemoveIndent: /^(?: {0,3}\t| {1,4})/gm,
	listInterruptsParagraph: /^ {0,3}(?:[*+-]|1[.)])[ \t]+[^ \t\n]/,
	outputLinkReplace: /\\([\[\]])/g,
	indentCodeCompensation: /^(\s+)(?:```)/,
	beginningSpace: /^\s+/,
	endingHash: /#$/,
	startingSpaceChar: /^ /,
	endingSpaceChar: / $/,
	endingSpaceTabChar: /[ \t]$/,
	nonSpaceChar: /[^ ]/,
	newLineCharGlobal: /\n/g,
	tabCharGlobal: /\t/g,
	leadingSpaceTab: /^[ \t]+/,
	multipleSpaceGlobal: /\s+/g,
	blankLine: /^[ \t]*$/,
	doubleBlankLine: /\n[ \t]*\n[ \t]*$/,
	blockquoteStart: /^ {0,3}>/,
	blockquoteSetextReplace: /\n {0,3}((?:=+|-+)[ \t]*)(?=\n|$)/g,
	blockquoteSetextReplace2: /^ {0,3}>[ \t]?/gm,
	blockquoteMarkerWhitespace: /^( {0,3}>)(\t[ \t]*)/gm,
	nestedBlockMarker: /^ {0,3}(?:(?:[*+-]|\d{1,9}[.)])(?: |$)|> ?)/,
	listReplaceNesting: /^ {1,4}(?=( {4})*[^ ])/g,
	listIsTask: /^\[[ xX]\][ \t]+\S/,
	listReplaceTask: /^\[[ xX]\][ \t]+/,
	listTaskCheckbox: /\[[ xX]\]/,
	anyLine: /\n.*\n/,
	hrefBrackets: /^<(.*)>$/,
	tableDelimiter: /[:|]/,
	tableAlignChars: /^\||\| *$/g,
	tableRowBlankLine: /\n[ \t]*$/,
	tableAlignRight: /^ *-+: *$/,
	tableAlignCenter: /^ *:-+: *$/,
	tableAlignLeft: /^ *:-+ *$/,
	startATag: /^<a /i,
	endATag: /^<\/a>/i,
	startPreScriptTag: /^<(pre|code|kbd|script)(\s|>)/i,
	endPreScriptTag: /^<\/(pre|code|kbd|script)(\s|>)/i,
	startAngleBracket: /^</,
	endAngleBracket: />$/,
	pedanticHrefTitle: /^([^'"]*[^\s])\s+(['"])(.*)\2/,
	unicodeAlphaNumeric: /[\p{L}\p{N}]/u,
	numericCharacterReference: /&#(?:(\d{1,7})|[Xx]([A-Fa-f0-9]{1,6}));/,
	numericCharacterReferenceOrAmpersand: /&#(?:(\d{1,7})|[Xx]([A-Fa-f0-9]{1,6}));|&(?!(#\d{1,7}|#[Xx][a-fA-F0-9]{1,6}|\w+);)/g,
	escapeTest: /[&<>"']/,
	escapeReplace: /[&<>"']/g,
	escapeTestNoEncode: /[<>"']|&(?!(#\d{1,7}|#[Xx][a-fA-F0-9]{1,6}|\w+);)/,
	escapeReplaceNoEncode: /[<>"']|&(?!(#\d{1,7}|#[Xx][a-fA-F0-9]{1,6}|\w+);)/g,
	caret: /(^|[^\[])\^/g,
	percentDecode: /%25/g,
	findPipe: /\|/g,
	splitPipe: / \|/,
	slashPipe: /\\\|/g,
	carriageReturn: /\r\n|\r/g,
	spaceLine: /^ +$/gm,
	notSpaceStart: /^\S*/,
	endingNewline: /\n$/,
	listItemRegex: (e) => RegExp(`^( {0,3}${e})((?:[	 ][^\\n]*)?(?:\\n|$))`),
	nextBulletRegex: di((e) => RegExp(`^ {0,${e}}(?:[*+-]|\\d{1,9}[.)])((?:[ 	][^\\n]*)?(?:\\n|$))`)),
	hrRegex: di((e) => RegExp(`^ {0,${e}}((?:-[ 	]*){3,}|(?:_[ 	]*){3,}|(?:\\*[ 	]*){3,})(?:\\n+|$)`)),
	fencesBeginRegex: di((e) => RegExp(`^ {0,${e}}(?:\`\`\`|~~~)`)),
	headingBeginRegex: di((e) => RegExp(`^ {0,${e}}#{1,6}(?:\\s|$)`)),
	pedanticHeadingBeginRegex: di((e) => RegExp(`^ {0,${e}}#`)),
	htmlBeginRegex: di((e) => RegExp(`^ {0,${e}}(?:</?(?:${yi})(?:[ \\t]+|$|/?>)|<(?:(?:script|pre|style|textarea)(?:[\\s>]|$)|!--)|<\\?|<![A-Za-z]|<!\\[CDATA\\[)`, "i")),
	blockquoteBeginRegex: di((e) => RegExp(`^ {0,${e}}>`)),
	nestedContainerMarkers: /^(?: {0,3}(?:(?:[*+-]|\d{1,9}[.)])[ \t]+|>[ \t]?))+/
}, pi = /^(?:[ \t]*(?:\n|$))+/, mi = /^((?: {4}| {0,3}\t)[^\n]+(?:\n(?:[ \t]*(?:\n|$))*)?)+/, hi = /^ {0,3}(`{3,}(?=[^`\n]*(?:\n|$))|~{3,})([^\n]*)(?:\n|$)(?:|([\s\S]*?)(?:\n|$))(?: {0,3}(?:(?=`)\1`*|(?=~)\1~*) *(?=\n|$)|$)/, gi = /^ {0,3}((?:-[\t ]*){3,}|(?:_[ \t]*){3,}|(?:\*[ \t]*){3,})(?:\n+|$)/, _i = /^ {0,3}(#{1,6})(?=\s|$)(.*)(?:\n+|$)/, vi = / {0,3}(?:[*+-]|\d{1,9}[.)])/, yi = "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|meta|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul", bi = G(" {0,3}(?:</?(?:tag)(?:[ \\t]+|\\n|/?>)|<(?:(?:script|pre|style|textarea)(?:[\\s>]|$)|!--)|<\\?|<![A-Za-z]|<!\\[CDATA\\[)").replace("tag", yi).getRegex(), xi = /^(?!bull |blockCode|fences|blockquote|heading|html|table)((?:.|\n(?!\s*?\n|bull |fences|blockquote|heading|hr|html|table))+?)\n {0,3}(=+|-+)[ \t]*(?:\n+|$)/, Si = G(xi).replace(/bull/g, vi).replace(/blockCode/g, /(?: {4}| {0,3}\t)/).replace(/fences/g, / {0,3}(?:`{3,}|~{3,})/).replace(/blockquote/g, / {0,3}>/).replace(/heading/g, / {0,3}#{1,6}(?:\s|$)/).replace(/hr/g, / {0,3}(?:(?:-[\t ]*){3,}|(?:_[ \t]*){3,}|(?:\*[ \t]*){3,})(?:\n+|$)/).replace(/\|table/g, "").replace(/html/g, bi).getRegex(), Ci = G(xi).replace(/bull/g, vi).replace(/blockCode/g, /(?: {4}| {0,3}\t)/).replace(/fences/g, / {0,3}(?:`{3,}|~{3,})/).replace(/blockquote/g, / {0,3}>/).replace(/heading/g, / {0,3}#{1,6}(?:\s|$)/).replace(/hr/g, / {0,3}(?:(?:-[\t ]*){3,}|(?:_[ \t]*){3,}|(?:\*[ \t]*){3,})(?:\n+|$)/).replace(/table/g, / {0,3}\|?(?:[:\- ]*\|)+[\:\- ]*\n/).replace(/html/g, bi).getRegex(), wi = /^([^\n]+(?:\n(?!hr|heading|lheading|blockquote|fences|list|html|table|[ \t]+\n)[^\n]+)*)/, Ti = /^[^\n]+/, Ei = /(?!\s*\])(?:\\[\s\S]|[^\[\]\\\n]|\n(?![ \t]*\n))+/, Di = G(/^ {0,3}\[(label)\]: *(?:\n[ \t]*)?([^<\s][^\s]*|<(?:\\.|[^\n<>\\])*>)(?:(?: +(?:\n[ \t]*)?| *\n[ \t]*)(title))? *(?:\n+|$)/).replace("label", Ei).replace("title", /(?:"(?:\\[\s\S]|[^"\\])*"|'(?:\\[\s\S]|[^'\\\n]|\n(?!\n))*'|\((?:\\[\s\S]|[^()\\])*\))/).getRegex(), Oi = G(/^(bull)([ \t][^\n]*?)?(?:\n|$)/).replace(/bull/g, vi).getRegex(), ki = /<!--(?:-?>|[\s\S]*?(?:-->|$))/, Ai = G("^ {0,3}(?:<(script|pre|style|textarea)[\\s>][\\s\\S]*?(?:</\\1>[^\\n]*\\n*|$)|comment[^\\n]*(\\n+|$)|<\\?[\\s\\S]*?(?:\\?>[^\\n]*\\n*|$)|<![A-Z][\\s\\S]*?(?:>[^\\n]*\\n*|$)|<!\\[CDATA\\[[\\s\\S]*?(?:\\]\\]>[^\\n]*\\n*|$)|</?(tag)(?:[ \\t]+|\\n|/?>|$)[\\s\\S]*?(?:(?:\\n[ 	]*)+\\n|$)|<(?!(?:script|pre|style|textarea)(?![a-z0-9-]))([a-z][a-z0-9-]*)(?:attribute)*?[ \\t]*/?>(?=[ \\t]*(?:\\n|$))[\\s\\S]*?(?:(?:\\n[ 	]*)+\\n|$)|</[a-z][a-z0-9-]*\\s*>(?=[ \\t]*(?:\\n|$))[\\s\\S]*?(?:(?:\\n[ 	]*)+\\n|$))", "i").replace("comment", ki).replace("tag", yi).replace("attribute", /[ \t]+[a-zA-Z:_][\w.:-]*(?:[ \t]*=[ \t]*"[^"\n]*"|[ \t]*=[ \t]*'[^'\n]*'|[ \t]*=[ \t]*[^\s"'=<>`]+)?/).getRegex(), ji = (e) => G(wi).replace("hr", gi).replace("heading", " {0,3}#{1,6}(?:\\s|$)").replace("|lheading", "").replace("|table", "").replace("blockquote", " {0,3}>").replace("fences", " {0,3}(?:`{3,}(?=[^`\\n]*(?:\\n|$))|~~~)[^\\n]*(?:\\n|$)").replace("list", e).replace("html", bi).getRegex(), Mi = ji(/ {0,3}(?:[*+-]|1[.)])[ \t]+[^ \t\n]/), Ni = ji(/ {0,3}(?:[*+-]|\d{1,9}[.)])(?:[ \t]|\n|$)/), Pi = {
	blockquote: G(/^( {0,3}> ?(?:(?![ \t]*(?:\n|$))(paragraph)|[^\n]*)(?:\n|$))+/).replace("paragraph", Ni).getRegex(),
	code: mi,
	def: Di,
	fences: hi,
	heading: _i,
	hr: gi,
	html: Ai,
	lheading: Si,
	list: Oi,
	newline: pi,
	paragraph: Mi,
	table: ui,
	text: Ti
}, Fi = G("^ *([^\\n ].*)\\n {0,3}((?:\\| *)?:?-+:? *(?:\\| *:?-+:? *)*(?:\\| *)?)(?:\\n((?:(?! *\\n|hr|heading|blockquote|code|fences|list|html).*(?:\\n|$))*)\\n*|$)").replace("hr", gi).replace("heading", " {0,3}#{1,6}(?:\\s|$)").replace("blockquote", " {0,3}>").replace("code", "(?: {4}| {0,3}	)[^\\n]").replace("fences", " {0,3}(?:`{3,}(?=[^`\\n]*(?:\\n|$))|~~~)[^\\n]*(?:\\n|$)").replace("list", " {0,3}(?:[*+-]|1[.)])[ \\t]").replace("html", bi).getRegex(), Ii = {
	...Pi,
	lheading: Ci,
	table: Fi,
	paragraph: G(wi).replace("hr", gi).replace("heading", " {0,3}#{1,6}(?:\\s|$)").replace("|lheading", "").replace("table", Fi).replace("blockquote", " {0,3}>").replace("fences", " {0,3}(?:`{3,}(?=[^`\\n]*(?:\\n|$))|~~~)[^\\n]*(?:\\n|$)").replace("list", " {0,3}(?:[*+-]|1[.)])[ \\t]+[^ \\t\\n]").replace("html", bi).getRegex()
}, Li = {
	...Pi,
	html: G("^ *(?:comment(?: *\\n|\\s*$)|<(tag)[\\s\\S]+?</\\1>(?: *\\n{2,}|\\s*$)|<tag(?:\"[^\"]*\"|'[^']*'|\\s[^'\"/>\\s]*)*?/?>(?: *\\n{2,}|\\s*$))").replace("comment", ki).replace(/tag/g, "(?!(?:a|em|strong|small|s|cite|q|dfn|abbr|data|time|code|var|samp|kbd|sub|sup|i|b|u|mark|ruby|rt|rp|bdi|bdo|span|br|wbr|ins|del|img)\\b)\\w+(?!:|[^\\w\\s@]*@)\\b").getRegex(),
	def: /^ *\[([^\]]+)\]: *<?([^\s>]+)>?(?: +(["(][^\n]+[")]))? *(?:\n+|$)/,
	heading: /^(#{1,6})(.*)(?:\n+|$)/,
	fences: ui,
	lheading: /^(.+?)\n {0,3}(=+|-+) *(?:\n+|$)/,
	paragraph: G(wi).replace("hr", gi).replace("heading", " *#{1,6} *[^\n]").replace("|table", "").replace("blockquote", " {0,3}>").replace("|fences", "").replace("|list", "").replace("|html", "").replace("|tag", "").replace("lheading", Si).getRegex()
}, Ri = /^\\([!"#$%&'()*+,\-./:;<=>?@\[\]\\^_`{|}~])/, zi = /^(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/, Bi = /^( {2,}|\\)\n(?!\s*$)[ \t]*/, Vi = /^(`+|[^`])(?:(?= {2,}\n)|[\s\S]*?(?:(?=[\\<!\[`*_]|\b_|$)|[^ ](?= {2,}\n)))/, Hi = /[\p{P}\p{S}]/u, Ui = /[\s\p{P}\p{S}]/u, Wi = /[^\s\p{P}\p{S}]/u, Gi = G(/^((?![*_])punctSpace)/, "u").replace(/punctSpace/g, Ui).getRegex(), Ki = /[\p{Pi}\p{Ps}"']/u, qi = /(?!~)[\p{P}\p{S}]/u, Ji = /(?!~)[\s\p{P}\p{S}]/u, Yi = /(?:[^\s\p{P}\p{S}]|~)/u, Xi = G(/link|precode-code|html/, "g").replace("link", /\[(?:[^\[\]`]|(?<a>`+)[^`]+\k<a>(?!`))*?\]\((?:\\[\s\S]|[^\\\(\)]|\((?:\\[\s\S]|[^\\\(\)])*\))*\)/).replace("precode-", fi ? "(?<!`)()" : "(^^|[^`])").replace("code", /(?<b>`+)[^`]+\k<b>(?!`)/).replace("html", /<(?! )[^<>]*?>/).getRegex(), Zi = /^(?:\*+(?:((?!\*)punct)|([^\s*]))?)|^_+(?:((?!_)punct)|([^\s_]))?/, Qi = G(Zi, "u").replace(/punct/g, Hi).getRegex(), $i = G(Zi, "u").replace(/punct/g, qi).getRegex(), ea = G(/^(?:\*+(?:((?!\*)(?!openQuote)punct)|([^\s*]))?)|^_+(?:((?!_)(?!openQuote)punct)|([^\s_]))?/, "u").replace(/openQuote/g, Ki).replace(/punct/g, Hi).getRegex(), ta = "^[^_*]*?__[^_*]*?\\*[^_*]*?(?=__)|[^*]+(?=[^*])|(?!\\*)punct(\\*+)(?=[\\s]|$)|notPunctSpace(\\*+)(?!\\*)(?=punctSpace|$)|(?!\\*)punctSpace(\\*+)(?=notPunctSpace)|[\\s](\\*+)(?!\\*)(?=punct)|(?!\\*)punct(\\*+)(?!\\*)(?=punct)|notPunctSpace(\\*+)(?=notPunctSpace)", na = G(ta, "gu").replace(/notPunctSpace/g, Wi).replace(/punctSpace/g, Ui).replace(/punct/g, Hi).getRegex(), ra = G(ta, "gu").replace(/notPunctSpace/g, Yi).replace(/punctSpace/g, Ji).replace(/punct/g, qi).getRegex(), ia = G("^[^_*]*?__[^_*]*?\\*[^_*]*?(?=__)|[^*]+(?=[^*])|(?!\\*)punct(\\*+)(?=[\\s]|$)|notPunctSpace(\\*+)(?!\\*)(?=punctSpace|$)|(?!\\*)[\\s](\\*+)(?=notPunctSpace)|[\\s](\\*+)(?!\\*)(?=punct)|(?!\\*)punct(\\*+)(?!\\*)(?=punct)|(?:(?!\\*)punct|notPunctSpace)(\\*+)(?!\\*)(?=notPunctSpace)", "gu").replace(/notPunctSpace/g, Wi).replace(/punctSpace/g, Ui).replace(/punct/g, Hi).getRegex(), aa = G("^[^_*]*?\\*\\*[^_*]*?_[^_*]*?(?=\\*\\*)|[^_]+(?=[^_])|(?!_)punct(_+)(?=[\\s]|$)|notPunctSpace(_+)(?!_)(?=punctSpace|$)|(?!_)punctSpace(_+)(?=notPunctSpace)|[\\s](_+)(?!_)(?=punct)|(?!_)punct(_+)(?!_)(?=punct)", "gu").replace(/notPunctSpace/g, Wi).replace(/punctSpace/g, Ui).replace(/punct/g, Hi).getRegex(), oa = G("^[^_*]*?\\*\\*[^_*]*?_[^_*]*?(?=\\*\\*)|[^_]+(?=[^_])|(?!_)punct(_+)(?=[\\s]|$)|notPunctSpace(_+)(?!_)(?=punctSpace|$)|(?!_)[\\s](_+)(?=notPunctSpace)|[\\s](_+)(?!_)(?=punct)|(?!_)punct(_+)(?!_)(?=punct)|(?:(?!_)punct|notPunctSpace)(_+)(?!_)(?=notPunctSpace)", "gu").replace(/notPunctSpace/g, Wi).replace(/punctSpace/g, Ui).replace(/punct/g, Hi).getRegex(), sa = G(/^~~?(?:((?!~)punct)|[^\s~])/, "u").replace(/punct/g, Hi).getRegex(), ca = G("^[^~]+(?=[^~])|(?!~)punct(~~?)(?=[\\s]|$)|notPunctSpace(~~?)(?!~)(?=punctSpace|$)|(?!~)punctSpace(~~?)(?=notPunctSpace)|[\\s](~~?)(?!~)(?=punct)|(?!~)punct(~~?)(?!~)(?=punct)|notPunctSpace(~~?)(?=notPunctSpace)", "gu").replace(/notPunctSpace/g, Wi).replace(/punctSpace/g, Ui).replace(/punct/g, Hi).getRegex(), la = G(/\\(punct)/, "gu").replace(/punct/g, Hi).getRegex(), ua = G(/(`+)(?:[^`]|[^`][\s\S]*?[^`])\1(?!`)|`+|\\(punct)/, "gu").replace(/punct/g, Hi).getRegex(), da = G(/^<(scheme:[^\s\x00-\x1f<>]*|email)>/).replace("scheme", /[a-zA-Z][a-zA-Z0-9+.-]{1,31}/).replace("email", /[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+(@)[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+(?![-_])/).getRegex(), fa = G(ki).replace("(?:-->|$)", "-->").getRegex(), pa = G("^comment|^</[a-zA-Z][a-zA-Z0-9-]*\\s*>|^<[a-zA-Z][a-zA-Z0-9-]*(?:attribute)*?\\s*/?>|^<\\?[\\s\\S]*?\\?>|^<![a-zA-Z]+\\s[\\s\\S]*?>|^<!\\[CDATA\\[[\\s\\S]*?\\]\\]>").replace("comment", fa).replace("attribute", /\s+[a-zA-Z:_][\w.:-]*(?:\s*=\s*"[^"]*"|\s*=\s*'[^']*'|\s*=\s*[^\s"'=<>`]+)?/).getRegex(), ma = /\[(?:\\[\s\S]|[^\[\]\\])*\]/, ha = G(/(?:\[(?:brackets|\\[\s\S]|[^\[\]\\])*\]|\\[\s\S]|`+(?!`)[^`]*?`+(?!`)|``+(?=\])|[^\[\]\\`])*?/).replace("brackets", ma).getRegex(), ga = G(/^!?\[(label)\]\([ \t\n]*(href)(?:(?:[ \t]+(?:\n[ \t]*)?|\n[ \t]*)(title))?[ \t\n]*\)/).replace("label", ha).replace("href", /<(?:\\.|[^\n<>\\])*>|(?!<)[^ \t\n\x00-\x1f]+|(?=\))/).replace("title", /"(?:\\[\s\S]|[^"\\])*"|'(?:\\[\s\S]|[^'\\])*'|\((?:\\[\s\S]|[^)\\])*\)/).getRegex(), _a = G(/^!?\[(label)\]\[(ref)\]/).replace("label", ha).replace("ref", Ei).getRegex(), va = G(/^!?\[(ref)\](?:\[\])?/).replace("ref", Ei).getRegex(), ya = /(?!\s*\])(?:\\[\s\S]|[^\[\]\\]){1,999}/, ba = G(/(?:[^\[\]\\`]*(?:\[(?:brackets|\\[\s\S]|[^\[\]\\])*\]|\\[\s\S]|`+(?!`)[^`]*?`+(?!`)|``+(?=\]))){0,999}?[^\[\]\\`]*?/).replace("brackets", ma).getRegex(), xa = G("reflink|nolink(?!\\()", "g").replace("reflink", G(/^!?\[(label)\]\[(ref)\]/).replace("label", ba).replace("ref", ya).getRegex()).replace("nolink", G(/^!?\[(ref)\](?:\[\])?/).replace("ref", ya).getRegex()).getRegex(), Sa = /[hH][tT][tT][pP][sS]?|[fF][tT][pP]/, Ca = G(/(?:mailto:email|xmpp:email(?:\/[A-Za-z0-9@.]+)?)/).replace(/email/g, /[A-Za-z0-9._+-]+@[a-zA-Z0-9-_]+(?:\.[a-zA-Z0-9-_]*[a-zA-Z0-9])+(?![\w-])/).getRegex(), wa = {
	_backpedal: ui,
	anyPunctuation: la,
	anyPunctuationOutsideCode: ua,
	autolink: da,
	blockSkip: Xi,
	br: Bi,
	code: zi,
	del: ui,
	delLDelim: ui,
	delRDelim: ui,
	emStrongLDelim: Qi,
	emStrongRDelimAst: na,
	emStrongRDelimUnd: aa,
	escape: Ri,
	link: ga,
	nolink: va,
	punctuation: Gi,
	reflink: _a,
	reflinkSearch: xa,
	tag: pa,
	text: Vi,
	url: ui
}, Ta = {
	...wa,
	emStrongLDelim: ea,
	emStrongRDelimAst: ia,
	emStrongRDelimUnd: oa,
	link: G(/^!?\[(label)\]\((.*?)\)/).replace("label", ha).getRegex(),
	reflink: G(/^!?\[(label)\]\s*\[([^\]]*)\]/).replace("label", ha).getRegex()
}, Ea = {
	...wa,
	emStrongRDelimAst: ra,
	emStrongLDelim: $i,
	delLDelim: sa,
	delRDelim: ca,
	url: G(/^emailProtocol|^((?:protocol):\/\/|www\.)(?:[a-zA-Z0-9\-]+\.?)+[^\s<]*|^email/).replace("emailProtocol", Ca).replace("protocol", Sa).replace("email", /[A-Za-z0-9._+-]+(@)[a-zA-Z0-9-_]+(?:\.[a-zA-Z0-9-_]*[a-zA-Z0-9])+(?![\w-])/).getRegex(),
	_backpedal: /(?:[^?!.,:;*_'"~()&]+|\([^)]*\)|&(?![a-zA-Z0-9]+;$)|[?!.,:;*_'"~)]+(?!$))+/,
	del: /^(~~?)(?=[^\s~])((?:\\[\s\S]|[^\\])*?(?:\\[\s\S]|[^\s~\\]))\1(?=[^~]|$)/,
	text: G(/^(?:[^a-zA-Z0-9](?=emailProtocol)|(`+|~+|[^`~])(?:(?=[`~])|(?= {2,}\n)|(?=[a-zA-Z0-9.!#$%&'*+\/=?_`{\|}~-]+@)|[\s\S]*?(?:(?=[\\<!\[`*~_]|\b_|protocol:\/\/|wwwStart|$)|[^ ](?= {2,}\n)|[^a-zA-Z0-9](?=emailProtocol)|[^a-zA-Z0-9.!#$%&'*+\/=?_`{\|}~-](?=[a-zA-Z0-9.!#$%&'*+\/=?_`{\|}~-]+@))))/).replace("protocol", Sa).replace(/emailProtocol/g, /(?:mailto|xmpp):/).replace("wwwStart", fi ? "(?<![^\\s*_~(])www\\." : "www\\.").getRegex()
}, Da = {
	...Ea,
	br: G(Bi).replace("{2,}", "*").getRegex(),
	text: G(Ea.text).replace("\\b_", "\\b_| {2,}\\n").replace(/\{2,\}/g, "*").getRegex()
}, Oa = {
	normal: Pi,
	gfm: Ii,
	pedantic: Li
}, ka = {
	normal: wa,
	gfm: Ea,
	breaks: Da,
	pedantic: Ta
}, Aa = {
	"&": "&amp;",
	"<": "&lt;",
	">": "&gt;",
	"\"": "&quot;",
	"'": "&#39;"
}, ja = (e) => Aa[e];
function Ma(e, t) {
	if (t) {
		if (K.escapeTest.test(e)) return e.replace(K.escapeReplace, ja);
	} else if (K.escapeTestNoEncode.test(e)) return e.replace(K.escapeReplaceNoEncode, ja);
	return e;
}
function Na(e) {
	return K.numericCharacterReference.test(e) ? e.replace(K.numericCharacterReferenceOrAmpersand, (e, t, n) => {
		if (t === void 0 && n === void 0) return "&amp;";
		let r = t === void 0 ? Number.parseInt(n, 16) : Number.parseInt(t, 10);
		return r === 0 || r > 1114111 || r >= 55296 && r <= 57343 ? "�" : r === 38 ? "&amp;" : String.fromCodePoint(r);
	}) : e;
}
function Pa(e) {
	try {
		e = encodeURI(e).replace(K.percentDecode, "%");
	} catch {
		return null;
	}
	return e;
}
function Fa(e, t) {
	let n = e.replace(K.findPipe, (e, t, n) => {
		let r = !1, i = t;
		for (; --i >= 0 && n[i] === "\\";) r = !r;
		return r ? "|" : " |";
	}).split(K.splitPipe), r = 0;
	if (n[0].trim() || n.shift(), n.length > 0 && !n.at(-1)?.trim() && n.pop(), t) {
		if (n.length > t) n.splice(t);
		else for (; n.length < t;) n.push("");
	}
	for (; r < n.length; r++) n[r] = n[r].trim().replace(K.slashPipe, "|");
	return n;
}
function Ia(e, t, n) {
	let r = e.length;
	if (r === 0) return "";
	let i = 0;
	for (; i < r;) {
		let a = e.charAt(r - i - 1);
		if (a === t && !n) i++;
		else if (a !== t && n) i++;
		else break;
	}
	return e.slice(0, r - i);
}
function La(e) {
	let t = e.split("\n"), n = t.length - 1;
	for (; n >= 0 && K.blankLine.test(t[n]);) n--;
	return t.length - n <= 2 ? e : t.slice(0, n + 1).join("\n");
}
function Ra(e) {
	return e.trim().replace(K.multipleSpaceGlobal, " ").toLowerCase().toUpperCase().toLowerCase();
}
function za(e, t) {
	if (e.indexOf(t[0]) === -1 && e.indexOf(t[1]) === -1) return -1;
	let n = 0;
	for (let r = 0; r < e.length; r++) if (e[r] === "\\") r++;
	else if (e[r] === t[0]) n++;
	else if (e[r] === t[1] && (n--, n < 0)) return r;
	return n > 0 ? -2 : -1;
}
var Ba = /* @__PURE__ */ new WeakMap();
function Va(e) {
	let t = {
		"*": -1,
		_: -1
	}, n = -1, r = e.length;
	for (let i = 0; i < r; i++) {
		let a = e[i];
		if (a !== "*" && a !== "_" && a !== "~") continue;
		let o = i === 0 ? "\n" : e[i - 1], s = i + 1;
		for (; s < r && e[s] === a;) s++;
		o !== " " && o !== "	" && o !== "\n" && o !== "\r" && o !== "\f" && (a === "~" ? n = i : t[a] = i), i = s - 1;
	}
	return {
		maskedSrc: e,
		lastPossibleEmStrongCloserIndex: t,
		lastPossibleDelCloserIndex: n
	};
}
function Ha(e, t) {
	let n = Va(t), r = Ba.get(e);
	r ? r.push(n) : Ba.set(e, [n]);
}
function Ua(e) {
	let t = Ba.get(e);
	t && (t.pop(), t.length === 0 && Ba.delete(e));
}
function Wa(e, t, n) {
	let r = Ba.get(e)?.at(-1);
	return r && r.maskedSrc === t ? r.lastPossibleEmStrongCloserIndex[n] : Va(t).lastPossibleEmStrongCloserIndex[n];
}
function Ga(e, t) {
	let n = Ba.get(e)?.at(-1);
	return n && n.maskedSrc === t ? n.lastPossibleDelCloserIndex : Va(t).lastPossibleDelCloserIndex;
}
function Ka(e, t = 0) {
	let n = t, r = "";
	for (let t of e) if (t === "	") {
		let e = 4 - n % 4;
		r += " ".repeat(e), n += e;
	} else r += t, n++;
	return r;
}
function qa(e, t) {
	let n = "";
	for (let r = 0; r < e.length; r++) {
		if (e[r] === "`") {
			let i = t.inline.code.exec(e.slice(r));
			if (i) {
				n += i[0], r += i[0].length - 1;
				continue;
			}
		}
		e[r] === "\\" && (e[r + 1] === "[" || e[r + 1] === "]") ? (n += e[r + 1], r++) : n += e[r];
	}
	return n;
}
function Ja(e, t, n, r, i) {
	let a = t.href, o = t.title || null, s = qa(e[1], i), c = e[0].charAt(0) === "!", l = r.state.inLink, u = r.state.linkEmitted, d = r.state.inRawBlock;
	r.state.inLink = !0, r.state.linkEmitted = !1;
	let f = r.inlineTokens(s), p = r.state.linkEmitted;
	if (r.state.linkEmitted = u, r.state.inLink = l, !c) {
		if (p) {
			r.state.inRawBlock = d;
			return;
		}
		r.state.linkEmitted = !0;
	}
	return {
		type: c ? "image" : "link",
		raw: n,
		href: a,
		title: o,
		text: s,
		tokens: f
	};
}
function Ya(e, t, n) {
	let r = e.match(n.other.indentCodeCompensation);
	if (r === null) return t;
	let i = r[1];
	return t.split("\n").map((e) => {
		let t = e.match(n.other.beginningSpace);
		if (t === null) return e;
		let [r] = t;
		return e.slice(Math.min(r.length, i.length));
	}).join("\n");
}
function Xa(e, t, n, r) {
	if (!t.includes("<")) return !1;
	for (let i = 0; i < t.length; i++) {
		if (t[i] === "\\") {
			i++;
			continue;
		}
		if (t[i] === "`") {
			let e = r.inline.code.exec(t.slice(i));
			if (e) {
				i += e[0].length - 1;
				continue;
			}
		}
		if (t[i] !== "<") continue;
		let a = e.slice(n + i), o = r.inline.tag.exec(a) || r.inline.autolink.exec(a);
		if (o) {
			if (o[0].length > t.length - i) return !0;
			i += o[0].length - 1;
		}
	}
	return !1;
}
var Za = class {
	options;
	rules;
	lexer;
	constructor(e) {
		this.options = e || ci;
	}
	space(e) {
		let t = this.rules.block.newline.exec(e);
		if (t && t[0].length > 0) return {
			type: "space",
			raw: t[0]
		};
	}
	code(e) {
		let t = this.rules.block.code.exec(e);
		if (t) {
			let e = this.options.pedantic ? t[0] : La(t[0]);
			return {
				type: "code",
				raw: e,
				codeBlockStyle: "indented",
				text: e.replace(this.rules.other.codeRemoveIndent, "")
			};
		}
	}
	fences(e) {
		let t = this.rules.block.fences.exec(e);
		if (t) {
			let e = t[0], n = Ya(e, t[3] || "", this.rules);
			return t[3] !== void 0 && (n === "" || n.endsWith("\n")) && (n += "\n"), {
				type: "code",
				raw: e,
				lang: t[2] ? t[2].trim().replace(this.rules.inline.anyPunctuation, "$1") : t[2],
				text: n
			};
		}
	}
	heading(e) {
		let t = this.rules.block.heading.exec(e);
		if (t) {
			let e = t[2].trim();
			if (this.rules.other.endingHash.test(e)) {
				let t = Ia(e, "#");
				(this.options.pedantic || !t || this.rules.other.endingSpaceTabChar.test(t)) && (e = t.trim());
			}
			return {
				type: "heading",
				raw: Ia(t[0], "\n"),
				depth: t[1].length,
				text: e,
				tokens: this.lexer.inline(e)
			};
		}
	}
	hr(e) {
		let t = this.rules.block.hr.exec(e);
		if (t) return {
			type: "hr",
			raw: Ia(t[0], "\n")
		};
	}
	blockquote(e) {
		let t = this.rules.block.blockquote.exec(e);
		if (t) {
			let e = Ia(t[0], "\n").split("\n"), n = "", r = "", i = [];
			for (; e.length > 0;) {
				let t = !1, a = [], o = 0;
				for (; o < e.length; o++) if (this.rules.other.blockquoteStart.test(e[o])) a.push(e[o]), t = !0;
				else if (!t) a.push(e[o]);
				else break;
				e = e.slice(o);
				let s = a.join("\n"), c = s.replace(this.rules.other.blockquoteMarkerWhitespace, (e, t, n) => n.startsWith(" ") ? t + " " + n.slice(1) : t + Ka(n, t.length)).replace(this.rules.other.blockquoteSetextReplace, "\n    $1").replace(this.rules.other.blockquoteSetextReplace2, "");
				n = n ? `${n}
${s}` : s, r = r ? `${r}
${c}` : c;
				let l = this.lexer.state.top;
				if (this.lexer.state.top = !0, this.lexer.blockTokens(c, i, !0), this.lexer.state.top = l, e.length === 0) break;
				let u = i.at(-1);
				if (u?.type === "code" || u?.type === "heading" || u?.type === "hr" || u?.type === "html" || u?.type === "table") break;
				if (u?.type === "blockquote") {
					let t = u, a = e.join("\n"), o = t.raw + "\n" + a.replace(this.rules.other.blockquoteSetextReplace2, ""), s = this.blockquote(o);
					i[i.length - 1] = s;
					let c = o.substring(s.raw.length).replace(/^\n/, ""), l = c ? c.split("\n").length : 0, d = l ? e.slice(0, -l) : e;
					if (d.length > 0 && (n = `${n}
${d.join("\n")}`), r = r.substring(0, r.length - t.text.length) + s.text, e = e.slice(d.length), e.length > 0 && this.rules.other.blockquoteStart.test(e[0])) continue;
					break;
				}
				if (u?.type === "list") {
					let t = u, a = t.raw + "\n" + e.join("\n"), o = this.list(a);
					i[i.length - 1] = o;
					let s = o.raw.length > t.raw.length ? a.slice(t.raw.length + 1, o.raw.length).split("\n").length : 0;
					if (s > 0) {
						let t = e.slice(0, s).join("\n");
						n = `${n}
${t}`, r = `${r}
${t}`;
					}
					if (e = e.slice(s), e.length > 0 && !this.rules.other.blockquoteStart.test(e[0])) break;
				}
			}
			return {
				type: "blockquote",
				raw: n,
				tokens: i,
				text: r
			};
		}
	}
	list(e) {
		let t = this.rules.block.list.exec(e);
		if (t) {
			if (!this.options.pedantic && this.lexer.state.lastToken?.type === "text" && !this.rules.other.listInterruptsParagraph.test(e)) return;
			let n = e, r = () => n.length - e.length, i = t[1].trim(), a = i.length > 1, o = {
				type: "list",
				raw: "",
				ordered: a,
				start: a ? +i.slice(0, -1) : "",
				loose: !1,
				items: []
			};
			i = a ? `\\d{1,9}\\${i.slice(-1)}` : `\\${i}`, this.options.pedantic && (i = a ? i : "[*+-]");
			let s = this.rules.other.listItemRegex(i), c = !1;
			for (; e;) {
				let i = !1, a = "";
				if (!(t = s.exec(e)) || this.rules.block.hr.test(e)) break;
				let l = r();
				e = e.substring(t[0].length);
				let u = t[2].split("\n", 1)[0], d = t[1].length, f = this.options.pedantic ? Ka(u, d) : u.replace(this.rules.other.leadingSpaceTab, (e) => Ka(e, d)), p = e.split("\n", 1)[0], m = !f.trim(), h = 0;
				if (this.options.pedantic ? (h = 2, a = f.trimStart()) : m ? h = d + 1 : (h = f.search(this.rules.other.nonSpaceChar), h = h > 4 ? 1 : h, a = f.slice(h), h += d), m && this.rules.other.blankLine.test(p) && (e = e.substring(p.length + 1), i = !0), !i) {
					let t = this.rules.other.nextBulletRegex(h), n = this.rules.other.hrRegex(h), r = this.rules.other.fencesBeginRegex(h), i = this.options.pedantic ? this.rules.other.pedanticHeadingBeginRegex(h) : this.rules.other.headingBeginRegex(h), o = this.rules.other.htmlBeginRegex(h), s = this.rules.other.blockquoteBeginRegex(h), c = !1;
					for (; e;) {
						let l = e.split("\n", 1)[0], u;
						if (p = l, this.options.pedantic ? (p = p.replace(this.rules.other.listReplaceNesting, "  "), u = p) : u = p.replace(this.rules.other.leadingSpaceTab, (e) => Ka(e)), r.test(p) || i.test(p) || o.test(p) || s.test(p) || t.test(p) || n.test(p)) break;
						if (u.search(this.rules.other.nonSpaceChar) >= h || !p.trim()) a += "\n" + u.slice(h), c = !1;
						else {
							if (m) break;
							let e = f;
							if (!this.options.pedantic && !a.includes("\n") && !f.includes("	")) {
								let t;
								for (; !n.test(e) && (t = this.rules.other.nestedBlockMarker.exec(e));) e = e.slice(t[0].length);
								if (!e.trim()) break;
							}
							if (e.replace(this.rules.other.tabCharGlobal, "    ").search(this.rules.other.nonSpaceChar) >= 4 || r.test(e) || i.test(e) || o.test(e) || n.test(e)) break;
							if (!this.options.pedantic && !c) {
								let e = f.replace(this.rules.other.nestedContainerMarkers, "");
								if (this.rules.block.fences.test(e) || this.rules.block.heading.test(e) || this.rules.block.hr.test(e)) break;
							}
							let t = !this.options.pedantic && /^ {0,3}(?:=+|-+) *$/.test(p) && this.rules.block.lheading.test(`${f}
${p}`) ? `    ${u.replace(/^ {0,3}/, "")}` : p;
							a += "\n" + t, c = !0;
						}
						m = !p.trim(), e = e.substring(l.length + 1), f = u.slice(h);
					}
				}
				let g = n.slice(l, r());
				o.loose || (c ? o.loose = !0 : this.rules.other.doubleBlankLine.test(g) && (c = !0)), o.items.push({
					type: "list_item",
					raw: g,
					task: !!this.options.gfm && this.rules.other.listIsTask.test(a),
					loose: !1,
					text: a,
					tokens: []
				});
			}
			let l = o.items.at(-1);
			if (l) l.raw = l.raw.trimEnd(), l.text = l.text.trimEnd();
			else return;
			o.raw = n.slice(0, r()).trimEnd();
			let u = [];
			for (let e of o.items) if (this.lexer.state.top = !1, u.push(this.lexer.inlineQueue.length), e.tokens = this.lexer.blockTokens(e.text, []), !o.loose) {
				let t = e.tokens.filter((e) => e.type === "space");
				o.loose = t.length > 0 && t.some((e) => this.rules.other.anyLine.test(e.raw));
			}
			for (let e = 0; e < o.items.length; e++) {
				let t = o.items[e], n = t.tokens[0];
				if (t.task && (n?.type === "text" || n?.type === "paragraph")) {
					t.text = t.text.replace(this.rules.other.listReplaceTask, ""), n.raw = n.raw.replace(this.rules.other.listReplaceTask, ""), n.text = n.text.replace(this.rules.other.listReplaceTask, "");
					let r = this.lexer.inlineQueue;
					for (let t = u[e]; t < r.length; t++) if (r[t].tokens === n.tokens) {
						r[t].src = r[t].src.replace(this.rules.other.listReplaceTask, "");
						break;
					}
					let i = this.rules.other.listTaskCheckbox.exec(t.raw);
					if (i) {
						let e = {
							type: "checkbox",
							raw: i[0] + " ",
							checked: i[0] !== "[ ]"
						};
						t.checked = e.checked, o.loose ? t.tokens[0] && ["paragraph", "text"].includes(t.tokens[0].type) && "tokens" in t.tokens[0] && t.tokens[0].tokens ? (t.tokens[0].raw = e.raw + t.tokens[0].raw, t.tokens[0].text = e.raw + t.tokens[0].text, t.tokens[0].tokens.unshift(e)) : t.tokens.unshift({
							type: "paragraph",
							raw: e.raw,
							text: e.raw,
							tokens: [e]
						}) : t.tokens.unshift(e);
					}
				} else t.task &&= !1;
			}
			if (o.loose) for (let e of o.items) {
				e.loose = !0;
				for (let t of e.tokens) t.type === "text" && (t.type = "paragraph");
			}
			return o;
		}
	}
	html(e) {
		let t = this.rules.block.html.exec(e);
		if (t) {
			if (this.lexer.state.lastToken?.type === "paragraph" && !this.rules.other.htmlBeginRegex(4).test(e)) return;
			let n = La(t[0]);
			return {
				type: "html",
				block: !0,
				raw: n,
				pre: t[1] === "pre" || t[1] === "script" || t[1] === "style",
				text: n
			};
		}
	}
	def(e) {
		let t = this.rules.block.def.exec(e);
		if (t) {
			if (!this.rules.other.startAngleBracket.test(t[2]) && za(t[2], "()") !== -1) return;
			let e = Ra(t[1]), n = t[2] ? t[2].replace(this.rules.other.hrefBrackets, "$1").replace(this.rules.inline.anyPunctuation, "$1") : "", r = t[3] ? t[3].substring(1, t[3].length - 1).replace(this.rules.inline.anyPunctuation, "$1") : t[3];
			return {
				type: "def",
				tag: e,
				raw: Ia(t[0], "\n"),
				href: n,
				title: r
			};
		}
	}
	table(e) {
		let t = this.rules.block.table.exec(e);
		if (!t || !this.rules.other.tableDelimiter.test(t[2])) return;
		let n = Fa(t[1]), r = t[2].replace(this.rules.other.tableAlignChars, "").split("|"), i = t[3]?.trim() ? t[3].replace(this.rules.other.tableRowBlankLine, "").split("\n") : [], a = {
			type: "table",
			raw: Ia(t[0], "\n"),
			header: [],
			align: [],
			rows: []
		};
		if (n.length === r.length) {
			for (let e of r) this.rules.other.tableAlignRight.test(e) ? a.align.push("right") : this.rules.other.tableAlignCenter.test(e) ? a.align.push("center") : this.rules.other.tableAlignLeft.test(e) ? a.align.push("left") : a.align.push(null);
			for (let e = 0; e < n.length; e++) a.header.push({
				text: n[e],
				tokens: this.lexer.inline(n[e]),
				header: !0,
				align: a.align[e]
			});
			for (let e of i) a.rows.push(Fa(e, a.header.length).map((e, t) => ({
				text: e,
				tokens: this.lexer.inline(e),
				header: !1,
				align: a.align[t]
			})));
			return a;
		}
	}
	lheading(e) {
		let t = this.rules.block.lheading.exec(e);
		if (t) {
			let e = t[1].trim();
			return {
				type: "heading",
				raw: Ia(t[0], "\n"),
				depth: t[2].charAt(0) === "=" ? 1 : 2,
				text: e,
				tokens: this.lexer.inline(e)
			};
		}
	}
	paragraph(e) {
		let t = this.rules.block.paragraph.exec(e);
		if (t) {
			let e = t[1].charAt(t[1].length - 1) === "\n" ? t[1].slice(0, -1) : t[1];
			return {
				type: "paragraph",
				raw: t[0],
				text: e,
				tokens: this.lexer.inline(e)
			};
		}
	}
	text(e) {
		let t = this.rules.block.text.exec(e);
		if (t) return {
			type: "text",
			raw: t[0],
			text: t[0],
			tokens: this.lexer.inline(t[0])
		};
	}
	escape(e) {
		if (e.charCodeAt(0) !== 92) return;
		let t = this.rules.inline.escape.exec(e);
		if (t) return {
			type: "escape",
			raw: t[0],
			text: t[1]
		};
	}
	tag(e) {
		if (e.charCodeAt(0) !== 60) return;
		let t = this.rules.inline.tag.exec(e);
		if (t) return !this.lexer.state.inLink && this.rules.other.startATag.test(t[0]) ? this.lexer.state.inLink = !0 : this.lexer.state.inLink && this.rules.other.endATag.test(t[0]) && (this.lexer.state.inLink = !1), !this.lexer.state.inRawBlock && this.rules.other.startPreScriptTag.test(t[0]) ? this.lexer.state.inRawBlock = !0 : this.lexer.state.inRawBlock && this.rules.other.endPreScriptTag.test(t[0]) && (this.lexer.state.inRawBlock = !1), {
			type: "html",
			raw: t[0],
			inLink: this.lexer.state.inLink,
			inRawBlock: this.lexer.state.inRawBlock,
			block: !1,
			text: t[0]
		};
	}
	link(e) {
		if (this.lexer.state.linkParenPossible === !1) return;
		let t = e.charCodeAt(0);
		if (t !== 91 && t !== 33) return;
		let n = this.rules.inline.link.exec(e);
		if (n) {
			let t = n[0].charAt(0) === "!" ? 2 : 1;
			if (!this.options.pedantic && Xa(e, n[1], t, this.rules)) return;
			let r = n[2].trim();
			if (!this.options.pedantic && this.rules.other.startAngleBracket.test(r)) {
				if (!this.rules.other.endAngleBracket.test(r)) return;
				let e = Ia(r.slice(0, -1), "\\");
				if ((r.length - e.length) % 2 == 0) return;
			} else {
				let e = za(n[2], "()");
				if (e === -2) return;
				if (e > -1) {
					let t = (n[0].indexOf("!") === 0 ? 5 : 4) + n[1].length + e;
					n[2] = n[2].substring(0, e), n[0] = n[0].substring(0, t).trim(), n[3] = "";
				}
			}
			let i = Ia(n[0].slice(0, -1), "\\");
			if ((n[0].length - i.length) % 2 == 0) return;
			let a = n[2], o = "";
			if (this.options.pedantic) {
				let e = this.rules.other.pedanticHrefTitle.exec(a);
				e && (a = e[1], o = e[3]);
			} else o = n[3] ? n[3].slice(1, -1) : "";
			return a = a.trim(), this.rules.other.startAngleBracket.test(a) && (a = this.options.pedantic && !this.rules.other.endAngleBracket.test(r) ? a.slice(1) : a.slice(1, -1)), Ja(n, {
				href: a && a.replace(this.rules.inline.anyPunctuation, "$1"),
				title: o && o.replace(this.rules.inline.anyPunctuation, "$1")
			}, n[0], this.lexer, this.rules);
		}
	}
	reflink(e, t) {
		let n = e.charCodeAt(0);
		if (n !== 91 && n !== 33) return;
		let r;
		if ((r = this.rules.inline.reflink.exec(e)) || (r = this.rules.inline.nolink.exec(e))) {
			let n = r[0].charAt(0) === "!" ? 2 : 1;
			if (!this.options.pedantic && Xa(e, r[1], n, this.rules)) return;
			let i = t[Ra(r[2] || r[1])];
			if (!i) {
				let e = r[0].charAt(0);
				return {
					type: "text",
					raw: e,
					text: e
				};
			}
			return Ja(r, i, r[0], this.lexer, this.rules);
		}
	}
	emStrong(e, t, n = "") {
		let r = this.rules.inline.emStrongLDelim.exec(e);
		if (!r || !r[1] && !r[2] && !r[3] && !r[4]) return;
		let i = r[0][0], a = n === i, o = t.length - e.length, s = o;
		for (; !this.options.pedantic && s > 0 && t[s - 1] === i;) s--;
		let c = [...t.slice(Math.max(0, s - 2), s)].at(-1) ?? "", l = c === "*" || c === "_" || !!this.rules.inline.punctuation.exec(c);
		s < o && (n = c);
		let u = s < o ? l : n === "*" || n === "_" || !!this.rules.inline.punctuation.exec(n);
		if (r[4] && n.match(this.rules.other.unicodeAlphaNumeric)) return;
		let d = r[1] || r[3] || "";
		if (!d || !n || u) {
			let n = [...r[0]].length - 1, u, f, p = n, m = 0, h = o - s + n, g = !this.options.pedantic && !!c.trim() && (!!d || i === "*" && !l);
			if (i !== "*" && i !== "_") return;
			let _ = i === "*" ? this.rules.inline.emStrongRDelimAst : this.rules.inline.emStrongRDelimUnd, v = Wa(this, t, i), ee = t.length - e.length + n;
			if (v < ee) return;
			t = t.slice(-1 * e.length + n);
			let te = v - ee;
			for (_.lastIndex = 0; (r = _.exec(t)) !== null && !(r.index > te);) {
				if (u = r[1] || r[2] || r[3] || r[4] || r[5] || r[6], !u) continue;
				if (f = [...u].length, r[3] || r[4]) {
					p += f;
					continue;
				}
				if ((r[5] || r[6] || g) && h % 3 && !((h + f) % 3)) {
					if (a && (r[5] || r[6])) break;
					m += f;
					continue;
				}
				if (p -= f, p > 0) continue;
				f = Math.min(f, f + p + m);
				let t = [...r[0]][0].length, i = e.slice(0, n + r.index + t + f);
				if (Math.min(n, f) % 2) {
					let e = i.slice(1, -1);
					return {
						type: "em",
						raw: i,
						text: e,
						tokens: this.lexer.inlineTokens(e)
					};
				}
				let o = i.slice(2, -2);
				return {
					type: "strong",
					raw: i,
					text: o,
					tokens: this.lexer.inlineTokens(o)
				};
			}
		}
	}
	codespan(e) {
		if (e.charCodeAt(0) !== 96) return;
		let t = this.rules.inline.code.exec(e);
		if (t) {
			let e = t[2].replace(this.rules.other.newLineCharGlobal, " "), n = this.rules.other.nonSpaceChar.test(e), r = this.rules.other.startingSpaceChar.test(e) && this.rules.other.endingSpaceChar.test(e);
			return n && r && (e = e.substring(1, e.length - 1)), {
				type: "codespan",
				raw: t[0],
				text: e
			};
		}
	}
	br(e) {
		let t = e.charCodeAt(0);
		if (t !== 32 && t !== 92 && t !== 10) return;
		let n = this.rules.inline.br.exec(e);
		if (n) return {
			type: "br",
			raw: n[0]
		};
	}
	del(e, t, n = "") {
		if (e.charCodeAt(0) !== 126) return;
		let r = this.rules.inline.delLDelim.exec(e);
		if (r && (!r[1] || !n || this.rules.inline.punctuation.exec(n))) {
			let n = [...r[0]].length - 1, i, a, o = n, s = this.rules.inline.delRDelim, c = Ga(this, t), l = t.length - e.length + n;
			if (c < l) return;
			t = t.slice(-1 * e.length + n);
			let u = c - l;
			for (s.lastIndex = 0; (r = s.exec(t)) !== null && !(r.index > u);) {
				if (i = r[1] || r[2] || r[3] || r[4] || r[5] || r[6], !i || (a = [...i].length, a !== n)) continue;
				if (r[3] || r[4]) {
					o += a;
					continue;
				}
				if (o -= a, o > 0) continue;
				a = Math.min(a, a + o);
				let t = [...r[0]][0].length, s = e.slice(0, n + r.index + t + a), c = s.slice(n, -n);
				return {
					type: "del",
					raw: s,
					text: c,
					tokens: this.lexer.inlineTokens(c)
				};
			}
		}
	}
	autolink(e) {
		if (e.charCodeAt(0) !== 60) return;
		let t = this.rules.inline.autolink.exec(e);
		if (t) {
			let e, n;
			return t[2] === "@" ? (e = t[1], n = "mailto:" + e) : (e = t[1], n = e), {
				type: "link",
				raw: t[0],
				text: e,
				href: n,
				autolink: !0,
				tokens: [{
					type: "text",
					raw: e,
					text: e
				}]
			};
		}
	}
	url(e) {
		let t;
		if (t = this.rules.inline.url.exec(e)) {
			let e, n;
			if (t[2] === "@") e = t[0], n = "mailto:" + e;
			else {
				let r;
				do
					r = t[0], t[0] = this.rules.inline._backpedal.exec(t[0])?.[0] ?? "";
				while (r !== t[0]);
				e = t[0], n = t[1] === "www." ? "http://" + t[0] : t[0];
			}
			return {
				type: "link",
				raw: t[0],
				text: e,
				href: n,
				autolink: !0,
				tokens: [{
					type: "text",
					raw: e,
					text: e
				}]
			};
		}
	}
	inlineText(e) {
		let t = this.rules.inline.text.exec(e);
		if (t) {
			let e = this.lexer.state.inRawBlock;
			return {
				type: "text",
				raw: t[0],
				text: e ? t[0] : Na(t[0]),
				escaped: e
			};
		}
	}
}, Qa = class e {
	tokens;
	options;
	state;
	inlineQueue;
	tokenizer;
	constructor(e) {
		this.tokens = [], this.tokens.links = Object.create(null), this.options = e || ci, this.options.tokenizer = this.options.tokenizer || new Za(), this.tokenizer = this.options.tokenizer, this.tokenizer.options = this.options, this.tokenizer.lexer = this, this.inlineQueue = [], this.state = {
			inLink: !1,
			inRawBlock: !1,
			linkEmitted: !1,
			linkParenPossible: !0,
			top: !0
		};
		let t = {
			other: K,
			block: Oa.normal,
			inline: ka.normal
		};
		this.options.pedantic ? (t.block = Oa.pedantic, t.inline = ka.pedantic) : this.options.gfm && (t.block = Oa.gfm, t.inline = this.options.breaks ? ka.breaks : ka.gfm), this.tokenizer.rules = t;
	}
	static get rules() {
		return {
			block: Oa,
			inline: ka
		};
	}
	static lex(t, n) {
		return new e(n).lex(t);
	}
	static lexInline(t, n) {
		return new e(n).inlineTokens(t);
	}
	lex(e) {
		e = e.replace(K.carriageReturn, "\n"), this.blockTokens(e, this.tokens);
		for (let e = 0; e < this.inlineQueue.length; e++) {
			let t = this.inlineQueue[e];
			this.state.inRawBlock = !1, this.inlineTokens(t.src, t.tokens);
		}
		return this.inlineQueue = [], this.tokens;
	}
	blockTokens(e, t = [], n = !1) {
		this.tokenizer.lexer = this;
		let r = this.state.lastToken;
		this.options.pedantic && (e = e.replace(K.tabCharGlobal, "    ").replace(K.spaceLine, ""));
		let i = 1 / 0, a, o = this.options.gfm && !this.options.pedantic && this.tokenizer.paragraph === Za.prototype.paragraph;
		for (; e;) {
			if (e.length < i) i = e.length;
			else {
				this.infiniteLoopError(e.charCodeAt(0));
				break;
			}
			this.state.lastToken = t.at(-1);
			let r;
			if (this.options.extensions?.block?.some((n) => (r = n.call({ lexer: this }, e, t)) ? (e = e.substring(r.raw.length), t.push(r), !0) : !1)) continue;
			if (r = this.tokenizer.space(e)) {
				e = e.substring(r.raw.length);
				let n = t.at(-1);
				r.raw.length === 1 && n !== void 0 ? n.raw += "\n" : t.push(r);
				continue;
			}
			if (r = this.tokenizer.code(e)) {
				e = e.substring(r.raw.length);
				let n = t.at(-1);
				n?.type === "paragraph" || n?.type === "text" ? (n.raw += (n.raw.endsWith("\n") ? "" : "\n") + r.raw, n.text += "\n" + r.text, this.inlineQueue.at(-1).src = n.text) : t.push(r);
				continue;
			}
			if ((r = this.tokenizer.fences(e)) || (r = this.tokenizer.heading(e)) || (r = this.tokenizer.hr(e)) || (r = this.tokenizer.blockquote(e)) || (r = this.tokenizer.list(e)) || (r = this.tokenizer.html(e))) {
				e = e.substring(r.raw.length), t.push(r);
				continue;
			}
			if (r = this.tokenizer.def(e)) {
				e = e.substring(r.raw.length);
				let n = t.at(-1);
				n?.type === "paragraph" || n?.type === "text" ? (n.raw += (n.raw.endsWith("\n") ? "" : "\n") + r.raw, n.text += "\n" + r.raw, this.inlineQueue.at(-1).src = n.text) : (this.tokens.links[r.tag] || (this.tokens.links[r.tag] = {
					href: r.href,
					title: r.title
				}), t.push(r));
				continue;
			}
			if ((r = this.tokenizer.table(e)) || (r = this.tokenizer.lheading(e))) {
				e = e.substring(r.raw.length), t.push(r);
				continue;
			}
			let s = e;
			if (this.options.extensions?.startBlock) {
				let t = 1 / 0, n = e.slice(1), r;
				this.options.extensions.startBlock.forEach((e) => {
					r = e.call({ lexer: this }, n), typeof r == "number" && r >= 0 && (t = Math.min(t, r));
				}), t < 1 / 0 && t >= 0 && (s = e.substring(0, t + 1));
			}
			if (this.state.top && (r = this.tokenizer.paragraph(s))) {
				let i = t.at(-1);
				(n || i === a && o) && i?.type === "paragraph" ? (i.raw += (i.raw.endsWith("\n") ? "" : "\n") + r.raw, i.text += "\n" + r.text, this.inlineQueue.pop(), this.inlineQueue.at(-1).src = i.text, a = i) : (t.push(r), a = r), n = s.length !== e.length, e = e.substring(r.raw.length);
			} else if (r = this.tokenizer.text(e)) {
				e = e.substring(r.raw.length);
				let n = t.at(-1);
				n?.type === "text" ? (n.raw += (n.raw.endsWith("\n") ? "" : "\n") + r.raw, n.text += "\n" + r.text, this.inlineQueue.pop(), this.inlineQueue.at(-1).src = n.text) : t.push(r);
			} else if (e) {
				this.infiniteLoopError(e.charCodeAt(0));
				break;
			}
		}
		return this.state.top = !0, this.state.lastToken = r, t;
	}
	inline(e, t = []) {
		return this.inlineQueue.push({
			src: e,
			tokens: t
		}), t;
	}
	linkInText(e) {
		if (!e.includes("[")) return !1;
		let t = this.tokenizer.rules.inline.link;
		for (let n of e.matchAll(this.tokenizer.rules.inline.blockSkip)) if (t.test(n[0]) && e.charAt(n.index - 1) !== "!") return !0;
		for (let t of e.matchAll(this.tokenizer.rules.inline.reflinkSearch)) {
			let e = t[0], n = e.lastIndexOf("[");
			if (e.charAt(0) !== "!" && Object.hasOwn(this.tokens.links, Ra(e.slice(n + 1, -1))) && !(n > 1 && this.linkInText(e.slice(1, n - 1)))) return !0;
		}
		return !1;
	}
	inlineTokens(e, t = []) {
		this.tokenizer.lexer = this;
		let n = this.state.linkParenPossible;
		this.state.linkParenPossible = e.includes(")");
		try {
			return this.#e(e, t);
		} finally {
			this.state.linkParenPossible = n;
		}
	}
	#e(e, t) {
		let n = e.includes("*") || e.includes("_") || e.includes("~"), r = n || this.options.hooks?.emStrongMask || this.tokenizer.emStrong !== Za.prototype.emStrong || this.tokenizer.del !== Za.prototype.del ? this.#r(e) : e;
		if (!n) return this.#t(e, r, t);
		Ha(this.tokenizer, r);
		try {
			return this.#t(e, r, t);
		} finally {
			Ua(this.tokenizer);
		}
	}
	#t(e, t, n) {
		let r = !1, i = "", a = 1 / 0;
		for (; e;) {
			if (e.length < a) a = e.length;
			else {
				this.infiniteLoopError(e.charCodeAt(0));
				break;
			}
			r || (i = ""), r = !1;
			let o;
			if (this.options.extensions?.inline?.some((t) => (o = t.call({ lexer: this }, e, n)) ? (e = e.substring(o.raw.length), n.push(o), !0) : !1)) continue;
			if ((o = this.tokenizer.escape(e)) || (o = this.tokenizer.tag(e)) || (o = this.tokenizer.link(e))) {
				e = e.substring(o.raw.length), n.push(o);
				continue;
			}
			if (o = this.tokenizer.reflink(e, this.tokens.links)) {
				e = e.substring(o.raw.length);
				let t = n.at(-1);
				o.type === "text" && t?.type === "text" ? (t.raw += o.raw, t.text += o.text) : n.push(o);
				continue;
			}
			let s = e[0];
			if (s === "*" || s === "_") {
				let a = t.length - e.length;
				if (Wa(this.tokenizer, t, s) <= a) {
					let t = 1;
					for (; t < e.length && e.charCodeAt(t) === s.charCodeAt(0);) t++;
					let a = e.substring(0, t), o = n.at(-1);
					o?.type === "text" && !o.escaped ? (o.raw += a, o.text += a) : n.push({
						type: "text",
						raw: a,
						text: a,
						escaped: !1
					}), e = e.substring(t), i = s, r = !0;
					continue;
				}
			} else if (s === "~") {
				let a = t.length - e.length;
				if (Ga(this.tokenizer, t) <= a) {
					let t = 1;
					for (; t < e.length && e.charCodeAt(t) === 126;) t++;
					let a = e.substring(0, t), o = n.at(-1);
					o?.type === "text" && !o.escaped ? (o.raw += a, o.text += a) : n.push({
						type: "text",
						raw: a,
						text: a,
						escaped: !1
					}), e = e.substring(t), i = s, r = !0;
					continue;
				}
			}
			if ((o = this.tokenizer.emStrong(e, t, i)) || (o = this.tokenizer.codespan(e)) || (o = this.tokenizer.br(e)) || (o = this.tokenizer.del(e, t, i)) || (o = this.tokenizer.autolink(e)) || !this.state.inLink && (o = this.tokenizer.url(e))) {
				e = e.substring(o.raw.length), n.push(o);
				continue;
			}
			let c = e;
			if (this.options.extensions?.startInline) {
				let t = 1 / 0, n = e.slice(1), r;
				this.options.extensions.startInline.forEach((e) => {
					r = e.call({ lexer: this }, n), typeof r == "number" && r >= 0 && (t = Math.min(t, r));
				}), t < 1 / 0 && t >= 0 && (c = e.substring(0, t + 1));
			}
			if (o = this.tokenizer.inlineText(c)) {
				e = e.substring(o.raw.length), o.raw.slice(-1) !== "_" && (i = o.raw.slice(-1)), r = !0;
				let t = n.at(-1);
				t?.type === "text" ? (t.raw += o.raw, t.text += o.text) : n.push(o);
			} else if (e) {
				this.infiniteLoopError(e.charCodeAt(0));
				break;
			}
		}
		return n;
	}
	#n(e) {
		let { blockSkip: t, tag: n, autolink: r } = this.tokenizer.rules.inline, i = "", a = 0, o;
		for (t.lastIndex = 0; o = t.exec(e);) {
			let s = o.index + (o[2] ? o[2].length : 0), c = o.index + o[0].length;
			if (e.charAt(s) === "<") {
				let i = e.slice(s), a = n.exec(i) || r.exec(i);
				if (!a) {
					t.lastIndex = s + 1;
					continue;
				}
				c = s + a[0].length, t.lastIndex = c;
			}
			i += e.slice(a, s) + "[" + "a".repeat(c - s - 2) + "]", a = c;
		}
		return i + e.slice(a);
	}
	#r(e) {
		let t = e;
		if (this.tokens.links && e.includes("[")) {
			let e = this.tokenizer.rules.inline.reflinkSearch, n = (t) => {
				let r = t.lastIndexOf("[");
				if (!Object.hasOwn(this.tokens.links, Ra(t.slice(r + 1, -1)))) return t;
				if (r > 1 && t.charAt(0) !== "!") {
					let i = t.slice(1, r - 1);
					if (this.linkInText(i)) return "[" + i.replace(e, n) + "][" + "a".repeat(t.length - r - 2) + "]";
				}
				return "[" + "a".repeat(t.length - 2) + "]";
			};
			t = t.replace(e, n);
		}
		return t = t.replace(this.tokenizer.rules.inline.anyPunctuationOutsideCode, (e, t, n) => n ? "+".repeat(e.length) : t ? t + e.slice(t.length, -t.length).replace(/`/g, "+") + t : e), t = this.#n(t), t = this.options.hooks?.emStrongMask?.call({ lexer: this }, t) ?? t, t;
	}
	infiniteLoopError(e) {
		let t = "Infinite loop on byte: " + e;
		if (this.options.silent) console.error(t);
		else throw Error(t);
	}
}, $a = class {
	options;
	parser;
	constructor(e) {
		this.options = e || ci;
	}
	space(e) {
		return "";
	}
	code({ text: e, lang: t, escaped: n }) {
		let r = (t || "").match(K.notSpaceStart)?.[0], i = e ? e.replace(K.endingNewline, "") + "\n" : "";
		return r ? "<pre><code class=\"language-" + Ma(r) + "\">" + (n ? i : Ma(i, !0)) + "</code></pre>\n" : "<pre><code>" + (n ? i : Ma(i, !0)) + "</code></pre>\n";
	}
	blockquote({ tokens: e }) {
		return `<blockquote>
${this.parser.parse(e)}</blockquote>
`;
	}
	html({ text: e }) {
		return e;
	}
	def(e) {
		return "";
	}
	heading({ tokens: e, depth: t }) {
		return `<h${t}>${this.parser.parseInline(e)}</h${t}>
`;
	}
	hr(e) {
		return "<hr>\n";
	}
	list(e) {
		let t = e.ordered, n = e.start, r = "";
		for (let t = 0; t < e.items.length; t++) {
			let n = e.items[t];
			r += this.listitem(n);
		}
		let i = t ? "ol" : "ul", a = t && n !== 1 ? " start=\"" + n + "\"" : "";
		return "<" + i + a + ">\n" + r + "</" + i + ">\n";
	}
	listitem(e) {
		return `<li>${this.parser.parse(e.tokens)}</li>
`;
	}
	checkbox({ checked: e }) {
		return "<input " + (e ? "checked=\"\" " : "") + "disabled=\"\" type=\"checkbox\"> ";
	}
	paragraph({ tokens: e }) {
		return `<p>${this.parser.parseInline(e)}</p>
`;
	}
	table(e) {
		let t = "", n = "";
		for (let t = 0; t < e.header.length; t++) n += this.tablecell(e.header[t]);
		t += this.tablerow({ text: n });
		let r = "";
		for (let t = 0; t < e.rows.length; t++) {
			let i = e.rows[t];
			n = "";
			for (let e = 0; e < i.length; e++) n += this.tablecell(i[e]);
			r += this.tablerow({ text: n });
		}
		return r &&= `<tbody>${r}</tbody>`, "<table>\n<thead>\n" + t + "</thead>\n" + r + "</table>\n";
	}
	tablerow({ text: e }) {
		return `<tr>
${e}</tr>
`;
	}
	tablecell(e) {
		let t = this.parser.parseInline(e.tokens), n = e.header ? "th" : "td";
		return (e.align ? `<${n} align="${e.align}">` : `<${n}>`) + t + `</${n}>
`;
	}
	strong({ tokens: e }) {
		return `<strong>${this.parser.parseInline(e)}</strong>`;
	}
	em({ tokens: e }) {
		return `<em>${this.parser.parseInline(e)}</em>`;
	}
	codespan({ text: e }) {
		return `<code>${Ma(e, !0)}</code>`;
	}
	br(e) {
		return "<br>";
	}
	del({ tokens: e }) {
		return `<del>${this.parser.parseInline(e)}</del>`;
	}
	link({ href: e, title: t, text: n, tokens: r, autolink: i }) {
		let a = i ? Ma(n, !0) : this.parser.parseInline(r), o = Pa(e);
		if (o === null) return a;
		e = Ma(o, i);
		let s = "<a href=\"" + e + "\"";
		return t && (s += " title=\"" + Ma(t) + "\""), s += ">" + a + "</a>", s;
	}
	image({ href: e, title: t, text: n, tokens: r }) {
		r && (n = this.parser.parseInline(r, this.parser.textRenderer));
		let i = Pa(e);
		if (i === null) return Ma(n);
		e = i;
		let a = `<img src="${Ma(e)}" alt="${Ma(n)}"`;
		return t && (a += ` title="${Ma(t)}"`), a += ">", a;
	}
	text(e) {
		return "tokens" in e && e.tokens ? this.parser.parseInline(e.tokens) : "escaped" in e && e.escaped ? e.text : Ma(e.text);
	}
}, eo = class {
	parser;
	strong({ text: e, tokens: t }) {
		return t ? this.parser.parseInline(t, this) : e;
	}
	em({ text: e, tokens: t }) {
		return t ? this.parser.parseInline(t, this) : e;
	}
	codespan({ text: e }) {
		return e;
	}
	del({ text: e, tokens: t }) {
		return t ? this.parser.parseInline(t, this) : e;
	}
	html({ text: e }) {
		return e;
	}
	text({ text: e }) {
		return e;
	}
	link({ text: e, tokens: t }) {
		return t ? this.parser.parseInline(t, this) : e;
	}
	image({ text: e, tokens: t }) {
		return t ? this.parser.parseInline(t, this) : e;
	}
	br() {
		return "\n";
	}
	checkbox({ raw: e }) {
		return e;
	}
}, to = class e {
	options;
	renderer;
	textRenderer;
	constructor(e) {
		this.options = e || ci, this.options.renderer = this.options.renderer || new $a(), this.renderer = this.options.renderer, this.renderer.options = this.options, this.renderer.parser = this, this.textRenderer = new eo(), this.textRenderer.parser = this;
	}
	static parse(t, n) {
		return new e(n).parse(t);
	}
	static parseInline(t, n) {
		return new e(n).parseInline(t);
	}
	parse(e) {
		this.renderer.parser = this;
		let t = "";
		for (let n = 0; n < e.length; n++) {
			let r = e[n];
			if (this.options.extensions?.renderers?.[r.type]) {
				let e = r, n = this.options.extensions.renderers[e.type].call({ parser: this }, e);
				if (n !== !1 || ![
					"space",
					"hr",
					"heading",
					"code",
					"table",
					"blockquote",
					"list",
					"checkbox",
					"html",
					"def",
					"paragraph",
					"text"
				].includes(e.type)) {
					t += n === !1 ? "" : n ?? "";
					continue;
				}
			}
			let i = r;
			switch (i.type) {
				case "space":
					t += this.renderer.space(i);
					break;
				case "hr":
					t += this.renderer.hr(i);
					break;
				case "heading":
					t += this.renderer.heading(i);
					break;
				case "code":
					t += this.renderer.code(i);
					break;
				case "table":
					t += this.renderer.table(i);
					break;
				case "blockquote":
					t += this.renderer.blockquote(i);
					break;
				case "list":
					t += this.renderer.list(i);
					break;
				case "checkbox":
					t += this.renderer.checkbox(i);
					break;
				case "html":
					t += this.renderer.html(i);
					break;
				case "def":
					t += this.renderer.def(i);
					break;
				case "paragraph":
					t += this.renderer.paragraph(i);
					break;
				case "text":
					t += this.renderer.text(i);
					break;
				default: {
					let e = "Token with \"" + i.type + "\" type was not found.";
					if (this.options.silent) return console.error(e), "";
					throw Error(e);
				}
			}
		}
		return t;
	}
	parseInline(e, t = this.renderer) {
		this.renderer.parser = this;
		let n = "";
		for (let r = 0; r < e.length; r++) {
			let i = e[r];
			if (this.options.extensions?.renderers?.[i.type]) {
				let e = this.options.extensions.renderers[i.type].call({ parser: this }, i);
				if (e !== !1 || ![
					"escape",
					"html",
					"link",
					"image",
					"checkbox",
					"strong",
					"em",
					"codespan",
					"br",
					"del",
					"text"
				].includes(i.type)) {
					n += e === !1 ? "" : e ?? "";
					continue;
				}
			}
			let a = i;
			switch (a.type) {
				case "escape":
					n += t.text(a);
					break;
				case "html":
					n += t.html(a);
					break;
				case "link":
					n += t.link(a);
					break;
				case "image":
					n += t.image(a);
					break;
				case "checkbox":
					n += t.checkbox(a);
					break;
				case "strong":
					n += t.strong(a);
					break;
				case "em":
					n += t.em(a);
					break;
				case "codespan":
					n += t.codespan(a);
					break;
				case "br":
					n += t.br(a);
					break;
				case "del":
					n += t.del(a);
					break;
				case "text":
					n += t.text(a);
					break;
				default: {
					let e = "Token with \"" + a.type + "\" type was not found.";
					if (this.options.silent) return console.error(e), "";
					throw Error(e);
				}
			}
		}
		return n;
	}
}, no = class {
	options;
	block;
	constructor(e) {
		this.options = e || ci;
	}
	static passThroughHooks = /* @__PURE__ */ new Set([
		"preprocess",
		"postprocess",
		"processAllTokens",
		"emStrongMask"
	]);
	static passThroughHooksRespectAsync = /* @__PURE__ */ new Set([
		"preprocess",
		"postprocess",
		"processAllTokens"
	]);
	preprocess(e) {
		return e;
	}
	postprocess(e) {
		return e;
	}
	processAllTokens(e) {
		return e;
	}
	emStrongMask(e) {
		return e;
	}
	provideLexer(e = this.block) {
		return e ? Qa.lex : Qa.lexInline;
	}
	provideParser(e = this.block) {
		return e ? to.parse : to.parseInline;
	}
};
function ro(e, t) {
	if (Array.isArray(t)) for (let n = 0; n < t.length; n++) e.push(t[n]);
	else e.push(t);
}
var io = new class {
	defaults = si();
	options = this.setOptions;
	parse = this.parseMarkdown(!0);
	parseInline = this.parseMarkdown(!1);
	Parser = to;
	Renderer = $a;
	TextRenderer = eo;
	Lexer = Qa;
	Tokenizer = Za;
	Hooks = no;
	constructor(...e) {
		this.use(...e);
	}
	walkTokens(e, t) {
		let n = [];
		for (let r of e) switch (ro(n, t.call(this, r)), r.type) {
			case "table": {
				let e = r;
				for (let r of e.header) ro(n, this.walkTokens(r.tokens, t));
				for (let r of e.rows) for (let e of r) ro(n, this.walkTokens(e.tokens, t));
				break;
			}
			case "list": {
				let e = r;
				ro(n, this.walkTokens(e.items, t));
				break;
			}
			default: {
				let e = r;
				this.defaults.extensions?.childTokens?.[e.type] ? this.defaults.extensions.childTokens[e.type].forEach((r) => {
					let i = e[r].flat(1 / 0);
					ro(n, this.walkTokens(i, t));
				}) : e.tokens && ro(n, this.walkTokens(e.tokens, t));
			}
		}
		return n;
	}
	use(...e) {
		let t = this.defaults.extensions || {
			renderers: Object.create(null),
			childTokens: Object.create(null)
		};
		return e.forEach((e) => {
			let n = { ...e };
			if (n.async = this.defaults.async || n.async || !1, e.extensions && (e.extensions.forEach((e) => {
				if (!e.name) throw Error("extension name required");
				if ("renderer" in e) {
					let n = t.renderers[e.name];
					n ? t.renderers[e.name] = function(...t) {
						let r = e.renderer.apply(this, t);
						return r === !1 && (r = n.apply(this, t)), r;
					} : t.renderers[e.name] = e.renderer;
				}
				if ("tokenizer" in e) {
					if (!e.level || e.level !== "block" && e.level !== "inline") throw Error("extension level must be 'block' or 'inline'");
					let n = t[e.level];
					n ? n.unshift(e.tokenizer) : t[e.level] = [e.tokenizer], e.start && (e.level === "block" ? t.startBlock ? t.startBlock.push(e.start) : t.startBlock = [e.start] : e.level === "inline" && (t.startInline ? t.startInline.push(e.start) : t.startInline = [e.start]));
				}
				"childTokens" in e && e.childTokens && (t.childTokens[e.name] = e.childTokens);
			}), n.extensions = t), e.renderer) {
				let t = this.defaults.renderer || new $a(this.defaults);
				for (let n in e.renderer) {
					if (!(n in t)) throw Error(`renderer '${n}' does not exist`);
					if (["options", "parser"].includes(n)) continue;
					let r = n, i = e.renderer[r], a = t[r];
					t[r] = (...e) => {
						let n = i.apply(t, e);
						return n === !1 && (n = a.apply(t, e)), n === !1 ? "" : n ?? "";
					};
				}
				n.renderer = t;
			}
			if (e.tokenizer) {
				let t = this.defaults.tokenizer || new Za(this.defaults);
				for (let n in e.tokenizer) {
					if (!(n in t)) throw Error(`tokenizer '${n}' does not exist`);
					if ([
						"options",
						"rules",
						"lexer"
					].includes(n)) continue;
					let r = n, i = e.tokenizer[r], a = t[r];
					t[r] = (...e) => {
						let n = i.apply(t, e);
						return n === !1 && (n = a.apply(t, e)), n;
					};
				}
				n.tokenizer = t;
			}
			if (e.hooks) {
				let t = this.defaults.hooks || new no();
				for (let n in e.hooks) {
					if (!(n in t)) throw Error(`hook '${n}' does not exist`);
					if (["options", "block"].includes(n)) continue;
					let r = n, i = e.hooks[r], a = t[r];
					t[r] = no.passThroughHooks.has(n) ? (e) => {
						if (t.options.async && no.passThroughHooksRespectAsync.has(n)) return (async () => {
							let n = await i.call(t, e);
							return a.call(t, n);
						})();
						let r = i.call(t, e);
						return a.call(t, r);
					} : (...e) => {
						if (t.options.async) return (async () => {
							let n = await i.apply(t, e);
							return n === !1 && (n = await a.apply(t, e)), n;
						})();
						let n = i.apply(t, e);
						return n === !1 && (n = a.apply(t, e)), n;
					};
				}
				n.hooks = t;
			}
			if (e.walkTokens) {
				let t = this.defaults.walkTokens, r = e.walkTokens;
				n.walkTokens = function(e) {
					let n = [];
					return ro(n, r.call(this, e)), t && ro(n, t.call(this, e)), n;
				};
			}
			this.defaults = {
				...this.defaults,
				...n
			};
		}), this;
	}
	setOptions(e) {
		return this.defaults = {
			...this.defaults,
			...e
		}, this;
	}
	lexer(e, t) {
		return Qa.lex(e, t ?? this.defaults);
	}
	parser(e, t) {
		return to.parse(e, t ?? this.defaults);
	}
	parseMarkdown(e) {
		return (t, n) => {
			let r = { ...n }, i = {
				...this.defaults,
				...r
			}, a = this.onError(!!i.silent, !!i.async);
			if (this.defaults.async === !0 && r.async === !1) return a(/* @__PURE__ */ Error("marked(): The async option was set to true by an extension. Remove async: false from the parse options object to return a Promise."));
			if (typeof t > "u" || t === null) return a(/* @__PURE__ */ Error("marked(): input parameter is undefined or null"));
			if (typeof t != "string") return a(/* @__PURE__ */ Error("marked(): input parameter is of type " + Object.prototype.toString.call(t) + ", string expected"));
			if (i.hooks && (i.hooks.options = i, i.hooks.block = e), i.async) return (async () => {
				let n = i.hooks ? await i.hooks.preprocess(t) : t, r = await (i.hooks ? await i.hooks.provideLexer(e) : e ? Qa.lex : Qa.lexInline)(n, i), a = i.hooks ? await i.hooks.processAllTokens(r) : r;
				i.walkTokens && await Promise.all(this.walkTokens(a, i.walkTokens));
				let o = await (i.hooks ? await i.hooks.provideParser(e) : e ? to.parse : to.parseInline)(a, i);
				return i.hooks ? await i.hooks.postprocess(o) : o;
			})().catch(a);
			try {
				i.hooks && (t = i.hooks.preprocess(t));
				let n = (i.hooks ? i.hooks.provideLexer(e) : e ? Qa.lex : Qa.lexInline)(t, i);
				i.hooks && (n = i.hooks.processAllTokens(n)), i.walkTokens && this.walkTokens(n, i.walkTokens);
				let r = (i.hooks ? i.hooks.provideParser(e) : e ? to.parse : to.parseInline)(n, i);
				return i.hooks && (r = i.hooks.postprocess(r)), r;
			} catch (e) {
				return a(e);
			}
		};
	}
	onError(e, t) {
		return (n) => {
			if (n.message += "\nPlease report this to https://github.com/markedjs/marked.", e) {
				let e = "<p>An error occurred:</p><pre>" + Ma(n.message + "", !0) + "</pre>";
				return t ? Promise.resolve(e) : e;
			}
			if (t) return Promise.reject(n);
			throw n;
		};
	}
}();
function q(e, t) {
	return io.parse(e, t);
}
q.options = q.setOptions = function(e) {
	return io.setOptions(e), q.defaults = io.defaults, li(q.defaults), q;
}, q.getDefaults = si, q.defaults = ci, q.use = function(...e) {
	return io.use(...e), q.defaults = io.defaults, li(q.defaults), q;
}, q.walkTokens = function(e, t) {
	return io.walkTokens(e, t);
}, q.parseInline = io.parseInline, q.Parser = to, q.parser = to.parse, q.Renderer = $a, q.TextRenderer = eo, q.Lexer = Qa, q.lexer = Qa.lex, q.Tokenizer = Za, q.Hooks = no, q.parse = q, q.options, q.setOptions, q.walkTokens, q.parseInline, to.parse, Qa.lex;
// node_modules/dompurify/dist/purify.es.mjs
function ao(e, t) {
	this.v = e, this.k = t;
}
function oo(e, t) {
	(t == null || t > e.length) && (t = e.length);
	for (var n = 0, r = Array(t); n < t; n++) r[n] = e[n];
	return r;
}
function so(e) {
	if (Array.isArray(e)) return e;
}
function co(e, t) {
	var n = e == null ? null : typeof Symbol < "u" && e[Symbol.iterator] || e["@@iterator"];
	if (n != null) {
		var r, i, a, o, s = [], c = !0, l = !1;
		try {
			if (a = (n = n.call(e)).next, t === 0) {
				if (Object(n) !== n) return;
				c = !1;
			} else for (; !(c = (r = a.call(n)).done) && (s.push(r.value), s.length !== t); c = !0);
		} catch (e) {
			l = !0, i = e;
		} finally {
			try {
				if (!c && n.return != null && (o = n.return(), Object(o) !== o)) return;
			} finally {
				if (l) throw i;
			}
		}
		return s;
	}
}
function lo() {
	throw TypeError("Invalid attempt to destructure non-iterable instance.\nIn order to be iterable, non-array objects must have a [Symbol.iterator]() method.");
}
function uo(e, t) {
	return so(e) || co(e, t) || fo(e, t) || lo();
}
function fo(e, t) {
	if (e) {
		if (typeof e == "string") return oo(e, t);
		var n = {}.toString.call(e).slice(8, -1);
		return n === "Object" && e.constructor && (n = e.constructor.name), n === "Map" || n === "Set" ? Array.from(e) : n === "Arguments" || /^(?:Ui|I)nt(?:8|16|32)(?:Clamped)?Array$/.test(n) ? oo(e, t) : void 0;
	}
}
function po(e) {
	var t, n;
	function r(t, n) {
		try {
			var a = e[t](n), o = a.value, s = o instanceof ao;
			Promise.resolve(s ? o.v : o).then(function(n) {
				if (s) {
					var c = t === "return" && o.k ? t : "next";
					if (!o.k || n.done) return r(c, n);
					n = e[c](n).value;
				}
				i(!!a.done, n);
			}, function(e) {
				r("throw", e);
			});
		} catch (e) {
			i(2, e);
		}
	}
	function i(e, i) {
		e === 2 ? t.reject(i) : t.resolve({
			value: i,
			done: e
		}), (t = t.next) ? r(t.key, t.arg) : n = null;
	}
	this._invoke = function(e, i) {
		return new Promise(function(a, o) {
			var s = {
				key: e,
				arg: i,
				resolve: a,
				reject: o,
				next: null
			};
			n ? n = n.next = s : (t = n = s, r(e, i));
		});
	}, typeof e.return != "function" && (this.return = void 0);
}
po.prototype[typeof Symbol == "function" && Symbol.asyncIterator || "@@asyncIterator"] = function() {
	return this;
}, po.prototype.next = function(e) {
	return this._invoke("next", e);
}, po.prototype.throw = function(e) {
	return this._invoke("throw", e);
}, po.prototype.return = function(e) {
	return this._invoke("return", e);
};
var mo = Object.entries, ho = Object.keys, go = Object.setPrototypeOf, _o = Object.isFrozen, vo = Object.getPrototypeOf, yo = Object.getOwnPropertyDescriptor, J = Object.freeze, Y = Object.seal, bo = Object.create, xo = typeof Reflect < "u" && Reflect, So = xo.apply, Co = xo.construct;
J ||= function(e) {
	return e;
}, Y ||= function(e) {
	return e;
}, So ||= function(e, t) {
	var n = [...arguments].slice(2);
	return e.apply(t, n);
}, Co ||= function(e) {
	return new e(...[...arguments].slice(1));
};
var wo = Z(Array.prototype.forEach), To = Z(Array.prototype.lastIndexOf), Eo = Z(Array.prototype.pop), Do = Z(Array.prototype.push), Oo = Z(Array.prototype.slice), ko = Z(Array.prototype.splice), Ao = Array.isArray, jo = Qo(Set), Mo = Z(Set.prototype.add), No = Z(Set.prototype.has), Po = Z(Set.prototype.delete), Fo = Qo(Map), Io = Z(Map.prototype.get), Lo = Z(Map.prototype.set), Ro = Z(String.prototype.toLowerCase), zo = Z(String.prototype.toString), Bo = Z(String.prototype.match), Vo = Z(String.prototype.replace), Ho = Z(String.prototype.indexOf), Uo = Z(String.prototype.trim), Wo = Z(Number.prototype.toString), Go = Z(Boolean.prototype.toString), Ko = typeof BigInt > "u" ? null : Z(BigInt.prototype.toString), qo = typeof Symbol > "u" ? null : Z(Symbol.prototype.toString), Jo = Z(Object.prototype.hasOwnProperty), Yo = Z(Object.prototype.toString), Xo = RegExp.prototype.test, X = function(e, t) {
	return e instanceof RegExp && (e.lastIndex = 0), So(Xo, e, [t]);
}, Zo = Qo(TypeError);
function Z(e) {
	return function(t) {
		var n = [...arguments].slice(1);
		return So(e, t, n);
	};
}
function Qo(e) {
	return function() {
		return Co(e, [...arguments]);
	};
}
function Q(e, t) {
	let n = arguments.length > 2 && arguments[2] !== void 0 ? arguments[2] : Ro;
	if (go && go(e, null), !Ao(t)) return e;
	let r = t.length;
	for (; r--;) {
		let i = t[r];
		if (typeof i == "string") {
			let e = n(i);
			e !== i && (_o(t) || (t[r] = e), i = e);
		}
		e[i] = !0;
	}
	return e;
}
function $o(e) {
	for (let t = 0; t < e.length; t++) Jo(e, t) || (e[t] = null);
	return e;
}
function es(e) {
	let t = bo(null);
	for (let r of mo(e)) {
		var n = uo(r, 2);
		let i = n[0], a = n[1];
		Jo(e, i) && (t[i] = Ao(a) ? $o(a) : a && typeof a == "object" && a.constructor === Object ? es(a) : a);
	}
	return t;
}
function ts(e) {
	let t = bo(null), n = ho(e), r = n.length;
	for (; r--;) t[n[r]] = e[n[r]];
	return t;
}
function ns(e) {
	switch (typeof e) {
		case "string": return e;
		case "number": return Wo(e);
		case "boolean": return Go(e);
		case "bigint": return Ko ? Ko(e) : "0";
		case "symbol": return qo ? qo(e) : "Symbol()";
		case "undefined": return Yo(e);
		case "function":
		case "object": {
			if (e === null) return Yo(e);
			let t = e, n = rs(t, "toString");
			if (typeof n == "function") {
				let e = n(t);
				return typeof e == "string" ? e : Yo(e);
			}
			return Yo(e);
		}
		default: return Yo(e);
	}
}
function rs(e, t) {
	for (; e !== null;) {
		let n = yo(e, t);
		if (n) {
			if (n.get) return Z(n.get);
			if (typeof n.value == "function") return Z(n.value);
		}
		e = vo(e);
	}
	function n() {
		return null;
	}
	return n;
}
function is(e, t) {
	for (; e !== null;) {
		let n = yo(e, t);
		if (n) return n.get ? Z(n.get) : null;
		e = vo(e);
	}
	return null;
}
function as(e) {
	if (!e) return !1;
	try {
		return X(e, ""), !0;
	} catch {
		return !1;
	}
}
var os = J(/* @__PURE__ */ "a.abbr.acronym.address.area.article.aside.audio.b.bdi.bdo.big.blink.blockquote.body.br.button.canvas.caption.center.cite.code.col.colgroup.content.data.datalist.dd.decorator.del.details.dfn.dialog.dir.div.dl.dt.element.em.fieldset.figcaption.figure.font.footer.form.h1.h2.h3.h4.h5.h6.head.header.hgroup.hr.html.i.img.input.ins.kbd.label.legend.li.main.map.mark.marquee.menu.menuitem.meter.nav.nobr.ol.optgroup.option.output.p.picture.pre.progress.q.rp.rt.ruby.s.samp.search.section.select.shadow.slot.small.source.spacer.span.strike.strong.style.sub.summary.sup.table.tbody.td.template.textarea.tfoot.th.thead.time.tr.track.tt.u.ul.var.video.wbr".split(".")), ss = J(/* @__PURE__ */ "svg.a.altglyph.altglyphdef.altglyphitem.animatecolor.animatemotion.animatetransform.circle.clippath.defs.desc.ellipse.filter.font.g.glyph.glyphref.hkern.image.line.lineargradient.marker.mask.metadata.mpath.path.pattern.polygon.polyline.radialgradient.rect.stop.style.switch.symbol.text.textpath.title.tref.tspan.view.vkern".split(".")), cs = J([
	"feBlend",
	"feColorMatrix",
	"feComponentTransfer",
	"feComposite",
	"feConvolveMatrix",
	"feDiffuseLighting",
	"feDisplacementMap",
	"feDistantLight",
	"feDropShadow",
	"feFlood",
	"feFuncA",
	"feFuncB",
	"feFuncG",
	"feFuncR",
	"feGaussianBlur",
	"feImage",
	"feMerge",
	"feMergeNode",
	"feMorphology",
	"feOffset",
	"fePointLight",
	"feSpecularLighting",
	"feSpotLight",
	"feTile",
	"feTurbulence"
]), ls = J([
	"animate",
	"color-profile",
	"cursor",
	"discard",
	"font-face",
	"font-face-format",
	"font-face-name",
	"font-face-src",
	"font-face-uri",
	"foreignobject",
	"hatch",
	"hatchpath",
	"mesh",
	"meshgradient",
	"meshpatch",
	"meshrow",
	"missing-glyph",
	"script",
	"set",
	"solidcolor",
	"unknown",
	"use"
]), us = J(/* @__PURE__ */ "math.menclose.merror.mfenced.mfrac.mglyph.mi.mlabeledtr.mmultiscripts.mn.mo.mover.mpadded.mphantom.mroot.mrow.ms.mspace.msqrt.mstyle.msub.msup.msubsup.mtable.mtd.mtext.mtr.munder.munderover.mprescripts".split(".")), ds = J([
	"maction",
	"maligngroup",
	"malignmark",
	"mlongdiv",
	"mscarries",
	"mscarry",
	"msgroup",
	"mstack",
	"msline",
	"msrow",
	"semantics",
	"annotation",
	"annotation-xml",
	"mprescripts",
	"none"
]), fs = J(["#text"]), ps = J(/* @__PURE__ */ "accept.action.align.alt.autocapitalize.autocomplete.autopictureinpicture.autoplay.background.bgcolor.border.capture.cellpadding.cellspacing.checked.cite.class.clear.color.cols.colspan.command.commandfor.controls.controlslist.coords.crossorigin.datetime.decoding.default.dir.disabled.disablepictureinpicture.disableremoteplayback.download.draggable.enctype.enterkeyhint.exportparts.face.for.headers.height.hidden.high.href.hreflang.id.inert.inputmode.integrity.ismap.kind.label.lang.list.loading.loop.low.max.maxlength.media.method.min.minlength.multiple.muted.name.nonce.noshade.novalidate.nowrap.open.optimum.part.pattern.placeholder.playsinline.popover.popovertarget.popovertargetaction.poster.preload.pubdate.radiogroup.readonly.rel.required.rev.reversed.role.rows.rowspan.spellcheck.scope.selected.shape.size.sizes.slot.span.srclang.start.src.srcset.step.style.summary.tabindex.title.translate.type.usemap.valign.value.width.wrap.xmlns".split(".")), ms = J(/* @__PURE__ */ "accent-height.accumulate.additive.alignment-baseline.amplitude.ascent.attributename.attributetype.azimuth.basefrequency.baseline-shift.begin.bias.by.class.clip.clippathunits.clip-path.clip-rule.color.color-interpolation.color-interpolation-filters.color-profile.color-rendering.cx.cy.d.dx.dy.diffuseconstant.direction.display.divisor.dominant-baseline.dur.edgemode.elevation.end.exponent.fill.fill-opacity.fill-rule.filter.filterunits.flood-color.flood-opacity.font-family.font-size.font-size-adjust.font-stretch.font-style.font-variant.font-weight.fx.fy.g1.g2.glyph-name.glyphref.gradientunits.gradienttransform.height.href.id.image-rendering.in.in2.intercept.k.k1.k2.k3.k4.kerning.keypoints.keysplines.keytimes.lang.lengthadjust.letter-spacing.kernelmatrix.kernelunitlength.lighting-color.local.marker-end.marker-mid.marker-start.markerheight.markerunits.markerwidth.maskcontentunits.maskunits.max.mask.mask-type.media.method.mode.min.name.numoctaves.offset.operator.opacity.order.orient.orientation.origin.overflow.paint-order.path.pathlength.patterncontentunits.patterntransform.patternunits.pointer-events.points.preservealpha.preserveaspectratio.primitiveunits.r.rx.ry.radius.refx.refy.repeatcount.repeatdur.restart.result.rotate.scale.seed.shape-rendering.slope.specularconstant.specularexponent.spreadmethod.startoffset.stddeviation.stitchtiles.stop-color.stop-opacity.stroke-dasharray.stroke-dashoffset.stroke-linecap.stroke-linejoin.stroke-miterlimit.stroke-opacity.stroke.stroke-width.style.surfacescale.systemlanguage.tabindex.tablevalues.targetx.targety.transform.transform-origin.text-anchor.text-decoration.text-orientation.text-rendering.textlength.type.u1.u2.unicode.values.vector-effect.viewbox.visibility.version.vert-adv-y.vert-origin-x.vert-origin-y.width.word-spacing.wrap.writing-mode.xchannelselector.ychannelselector.x.x1.x2.xmlns.y.y1.y2.z.zoomandpan".split(".")), hs = J(/* @__PURE__ */ "accent.accentunder.align.bevelled.close.columnalign.columnlines.columnspacing.columnspan.denomalign.depth.dir.display.displaystyle.encoding.fence.frame.height.href.id.largeop.length.linethickness.lquote.lspace.mathbackground.mathcolor.mathsize.mathvariant.maxsize.minsize.movablelimits.notation.numalign.open.rowalign.rowlines.rowspacing.rowspan.rspace.rquote.scriptlevel.scriptminsize.scriptsizemultiplier.selection.separator.separators.stretchy.subscriptshift.supscriptshift.symmetric.voffset.width.xmlns".split(".")), gs = J([
	"xlink:href",
	"xml:id",
	"xlink:title",
	"xml:space",
	"xmlns:xlink"
]), _s = Y(/{{[\w\W]*|^[\w\W]*}}/g), vs = Y(/<%[\w\W]*|^[\w\W]*%>/g), ys = Y(/\${[\w\W]*/g), bs = Y(/{{|}}|\${|<%|%>/), xs = Y(/[^\t\n\f\r ]/), Ss = Y(/\u0000/g), Cs = Y(/^data-[\-\w.\u00B7-\uFFFF]+$/), ws = Y(/^aria-[\-\w]+$/), Ts = Y(/^(?:(?:(?:f|ht)tps?|mailto|tel|callto|sms|cid|xmpp|matrix):|[^a-z]|[a-z+.\-]+(?:[^a-z+.\-:]|$))/i), Es = Y(/^(?:\w+script|data):/i), Ds = Y(/[\u0000-\u0020\u00A0\u1680\u180E\u2000-\u2029\u205F\u3000]/g), Os = Y(/^html$/i), ks = Y(/^[a-z][.\w]*(-[.\w]+)+$/i), As = Y(/<[/\w!]/g), js = Y(/<[/\w]/g), Ms = Y(/<[/\w]|^-?>|--!?>|<!-$/g), Ns = Y(/<\/no(script|embed|frames)/i), Ps = Y(/\/>/i), Fs = Y(/((--!?|])>)|<\/(style|script|title|xmp|textarea|noscript|iframe|noembed|noframes)/i), Is = Y(/^[\r\n\t ]+/), $ = {
	element: 1,
	text: 3,
	processingInstruction: 7,
	comment: 8,
	document: 9,
	documentFragment: 11
}, Ls = J(Q({}, [
	"style",
	"script",
	"xmp",
	"iframe",
	"noembed",
	"noframes",
	"plaintext",
	"noscript"
])), Rs = J(Q({}, ["textarea", "title"])), zs = J(Q({}, [
	"area",
	"base",
	"basefont",
	"bgsound",
	"br",
	"col",
	"embed",
	"frame",
	"hr",
	"img",
	"input",
	"keygen",
	"link",
	"meta",
	"param",
	"source",
	"track",
	"wbr"
])), Bs = function() {
	return typeof window > "u" ? null : window;
}, Vs = function(e, t) {
	if (typeof e != "object" || typeof e.createPolicy != "function") return null;
	let n = null, r = "data-tt-policy-suffix";
	t && t.hasAttribute(r) && (n = t.getAttribute(r));
	let i = "dompurify" + (n ? "#" + n : "");
	try {
		return e.createPolicy(i, {
			createHTML(e) {
				return e;
			},
			createScriptURL(e) {
				return e;
			}
		});
	} catch {
		return console.warn("TrustedTypes policy " + i + " could not be created."), null;
	}
}, Hs = function() {
	return {
		afterSanitizeAttributes: [],
		afterSanitizeElements: [],
		afterSanitizeShadowDOM: [],
		beforeSanitizeAttributes: [],
		beforeSanitizeElements: [],
		beforeSanitizeShadowDOM: [],
		uponSanitizeAttribute: [],
		uponSanitizeElement: [],
		uponSanitizeShadowNode: []
	};
}, Us = function(e, t, n, r) {
	return Jo(e, t) && Ao(e[t]) ? Q(r.base ? ts(r.base) : {}, e[t], r.transform) : n;
}, Ws = function(e, t, n) {
	let r = Jo(e, t) ? e[t] : void 0;
	return r && typeof r == "object" ? es(r) : n;
};
function Gs() {
	let e = arguments.length > 0 && arguments[0] !== void 0 ? arguments[0] : Bs(), t = (e) => Gs(e);
	if (t.version = "3.5.0", t.removed = [], !e || !e.document || e.document.nodeType !== $.document || !e.Element) return t.isSupported = !1, t;
	let n = e.document, r = n, i = r.currentScript, a = e.HTMLTemplateElement, o = e.Node, s = e.Element, c = e.NodeFilter, l = e.DOMParser, u = e.trustedTypes, d = s.prototype, f = rs(d, "cloneNode"), p = rs(d, "remove"), m = rs(d, "removeChild"), h = rs(d, "removeAttributeNode"), g = rs(d, "nextSibling"), _ = rs(d, "childNodes"), v = rs(d, "parentNode"), ee = rs(d, "shadowRoot"), te = rs(d, "attributes"), ne = o && o.prototype ? rs(o.prototype, "nodeType") : null, re = o && o.prototype ? rs(o.prototype, "nodeName") : null, ie = o && o.prototype ? rs(o.prototype, "ownerDocument") : null, ae = function(e) {
		return ne ? ne(e) : e.nodeType;
	}, oe = function(e) {
		return re ? re(e) : e.nodeName;
	}, se = is(d, "namespaceURI"), ce = function(e) {
		return se ? se(e) : e.namespaceURI;
	}, le = function(e) {
		return ae(e) === $.element ? te(e) : null;
	};
	if (typeof a == "function") {
		let e = n.createElement("template");
		e.content && e.content.ownerDocument && (n = e.content.ownerDocument);
	}
	let ue, de = "", fe, pe = !1, me = 0, y = function() {
		if (me > 0) throw Zo("A configured TRUSTED_TYPES_POLICY callback (createHTML or createScriptURL) must not call DOMPurify.sanitize, as that causes infinite recursion. Do not pass a policy whose callbacks wrap DOMPurify as TRUSTED_TYPES_POLICY; see the \"DOMPurify and Trusted Types\" section of the README.");
	}, he = function(e) {
		y(), me++;
		try {
			return ue.createHTML(e);
		} finally {
			me--;
		}
	}, ge = function(e) {
		return ue && We ? he(e) : e;
	}, _e = function(e) {
		y(), me++;
		try {
			return ue.createScriptURL(e);
		} finally {
			me--;
		}
	}, ve = function() {
		return pe ||= (fe = Vs(u, i), !0), fe;
	}, b = n, ye = b.implementation, x = b.createNodeIterator, be = b.createDocumentFragment, xe = b.getElementsByTagName, Se = r.importNode, S = Hs();
	t.isSupported = typeof mo == "function" && typeof v == "function" && ye && ye.createHTMLDocument !== void 0;
	let Ce = _s, we = vs, Te = ys, C = Cs, Ee = ws, De = Es, w = Ds, Oe = ks, ke = Ts, T = null, Ae = Q({}, [
		...os,
		...ss,
		...cs,
		...us,
		...fs
	]), E = null, D = Q({}, [
		...ps,
		...ms,
		...hs,
		...gs
	]), je = null, Me = null, Ne = null, Pe = Object.seal(bo(null, {
		tagCheck: {
			writable: !0,
			configurable: !1,
			enumerable: !0,
			value: null
		},
		attributeCheck: {
			writable: !0,
			configurable: !1,
			enumerable: !0,
			value: null
		}
	})), Fe = !0, Ie = !0, Le = !1, Re = !0, O = !1, ze = !0, Be = !1, Ve = !1, k = null, He = null, Ue = !1, A = !1, j = !1, We = !1, Ge = !0, Ke = !1, qe = "user-content-", Je = !0, Ye = !1, M = null, Xe = null, Ze = !1, Qe = null, $e = Q({}, /* @__PURE__ */ "annotation-xml.audio.colgroup.desc.foreignobject.head.iframe.math.mi.mn.mo.ms.mtext.noembed.noframes.noscript.plaintext.script.selectedcontent.style.svg.template.thead.title.video.xmp".split(".")), et = null, tt = Q({}, [
		"audio",
		"video",
		"img",
		"source",
		"image",
		"track"
	]), nt = null, rt = Q({}, [
		"alt",
		"class",
		"for",
		"id",
		"label",
		"name",
		"pattern",
		"placeholder",
		"role",
		"summary",
		"title",
		"value",
		"style",
		"xmlns"
	]), it = "http://www.w3.org/1998/Math/MathML", at = "http://www.w3.org/2000/svg", ot = "http://www.w3.org/1999/xhtml", st = ot, ct = !1, lt = null, ut = Q({}, [
		it,
		at,
		ot
	], zo), dt = J(Q({}, [
		"mi",
		"mo",
		"mn",
		"ms",
		"mtext"
	])), ft = null, pt = J(Q({}, ["annotation-xml"])), mt = null, ht = J(bo(null)), gt = Q({}, [
		"title",
		"style",
		"font",
		"a",
		"script"
	]), _t = null, vt = ["application/xhtml+xml", "text/html"], N = null, yt = null, P = null, bt = n.createElement("form"), F = function(e) {
		return e instanceof RegExp || e instanceof Function;
	}, xt = function() {
		let e = arguments.length > 0 && arguments[0] !== void 0 ? arguments[0] : {};
		e && typeof e == "object" || (e = {}), e = es(e), _t = vt.indexOf(e.PARSER_MEDIA_TYPE) === -1 ? "text/html" : e.PARSER_MEDIA_TYPE, N = _t === "application/xhtml+xml" ? zo : Ro, T = Us(e, "ALLOWED_TAGS", Ae, { transform: N }), E = Us(e, "ALLOWED_ATTR", D, { transform: N }), lt = Us(e, "ALLOWED_NAMESPACES", ut, { transform: zo }), nt = Us(e, "ADD_URI_SAFE_ATTR", rt, {
			transform: N,
			base: rt
		}), et = Us(e, "ADD_DATA_URI_TAGS", tt, {
			transform: N,
			base: tt
		}), Qe = Us(e, "FORBID_CONTENTS", $e, { transform: N }), Me = Us(e, "FORBID_TAGS", bo(null), { transform: N }), Ne = Us(e, "FORBID_ATTR", bo(null), { transform: N }), Ze = Jo(e, "USE_PROFILES") ? e.USE_PROFILES && typeof e.USE_PROFILES == "object" ? es(e.USE_PROFILES) : e.USE_PROFILES : !1, Fe = e.ALLOW_ARIA_ATTR !== !1, Ie = e.ALLOW_DATA_ATTR !== !1, Le = e.ALLOW_UNKNOWN_PROTOCOLS || !1, Re = e.ALLOW_SELF_CLOSE_IN_ATTR !== !1, O = e.SAFE_FOR_TEMPLATES || !1, ze = e.SAFE_FOR_XML !== !1, Be = e.WHOLE_DOCUMENT || !1, A = e.RETURN_DOM || !1, j = e.RETURN_DOM_FRAGMENT || !1, We = e.RETURN_TRUSTED_TYPE || !1, Ue = e.FORCE_BODY || !1, Ge = e.SANITIZE_DOM !== !1, Ke = e.SANITIZE_NAMED_PROPS || !1, Je = e.KEEP_CONTENT !== !1, Ye = e.IN_PLACE || !1, ke = as(e.ALLOWED_URI_REGEXP) ? e.ALLOWED_URI_REGEXP : Ts, st = typeof e.NAMESPACE == "string" ? e.NAMESPACE : ot, ft = Ws(e, "MATHML_TEXT_INTEGRATION_POINTS", dt), mt = Ws(e, "HTML_INTEGRATION_POINTS", pt);
		let t = Ws(e, "CUSTOM_ELEMENT_HANDLING", ht);
		if (je = bo(null), Jo(t, "tagNameCheck") && F(t.tagNameCheck) && (je.tagNameCheck = t.tagNameCheck), Jo(t, "attributeNameCheck") && F(t.attributeNameCheck) && (je.attributeNameCheck = t.attributeNameCheck), Jo(t, "allowCustomizedBuiltInElements") && typeof t.allowCustomizedBuiltInElements == "boolean" && (je.allowCustomizedBuiltInElements = t.allowCustomizedBuiltInElements), Y(je), O && (Ie = !1), j && (A = !0), Ze && ((Jo(e, "ALLOWED_TAGS") || Jo(e, "ALLOWED_ATTR")) && typeof console < "u" && typeof console.warn == "function" && console.warn("DOMPurify: USE_PROFILES overrides ALLOWED_TAGS and ALLOWED_ATTR. Do not use these options together."), T = Q({}, fs), E = bo(null), Ze.html === !0 && (Q(T, os), Q(E, ps)), Ze.svg === !0 && (Q(T, ss), Q(E, ms), Q(E, gs)), Ze.svgFilters === !0 && (Q(T, cs), Q(E, ms), Q(E, gs)), Ze.mathMl === !0 && (Q(T, us), Q(E, hs), Q(E, gs))), Pe.tagCheck = null, Pe.attributeCheck = null, Jo(e, "ADD_TAGS") && (typeof e.ADD_TAGS == "function" ? Pe.tagCheck = e.ADD_TAGS : Ao(e.ADD_TAGS) && (T === Ae && (T = ts(T)), Q(T, e.ADD_TAGS, N))), Jo(e, "ADD_ATTR") && (typeof e.ADD_ATTR == "function" ? Pe.attributeCheck = e.ADD_ATTR : Ao(e.ADD_ATTR) && (E === D && (E = ts(E)), Q(E, e.ADD_ATTR, N))), Jo(e, "ADD_FORBID_CONTENTS") && Ao(e.ADD_FORBID_CONTENTS) && (Qe === $e && (Qe = ts(Qe)), Q(Qe, e.ADD_FORBID_CONTENTS, N)), Je && (T["#text"] = !0), Be && Q(T, [
			"html",
			"head",
			"body"
		]), T.table && (T.tbody = !0, delete Me.tbody), e.TRUSTED_TYPES_POLICY) {
			if (typeof e.TRUSTED_TYPES_POLICY.createHTML != "function") throw Zo("TRUSTED_TYPES_POLICY configuration option must provide a \"createHTML\" hook.");
			if (typeof e.TRUSTED_TYPES_POLICY.createScriptURL != "function") throw Zo("TRUSTED_TYPES_POLICY configuration option must provide a \"createScriptURL\" hook.");
			let t = ue;
			ue = e.TRUSTED_TYPES_POLICY;
			try {
				de = he("");
			} catch (e) {
				throw ue = t, e;
			}
		} else e.TRUSTED_TYPES_POLICY === null ? (ue = void 0, de = "") : (ue === void 0 && (ue = ve()), ue && typeof de == "string" && (de = he("")));
		yt = J(e);
	}, I = Q({}, [
		...ss,
		...cs,
		...ls
	]), St = Q({}, [...us, ...ds]), Ct = function(e, t, n) {
		return t === ot ? e === "svg" : t === it ? e === "svg" && (n === "annotation-xml" || ft[n]) : !!I[e];
	}, wt = function(e, t, n) {
		return t === ot ? e === "math" : t === at ? e === "math" && mt[n] : !!St[e];
	}, Tt = function(e, t, n) {
		return t === at && !mt[n] || t === it && !ft[n] ? !1 : !St[e] && (gt[e] || !I[e]);
	}, Et = function(e) {
		let t = ce(e), n = Ro(oe(e)), r = v(e), i = st, a = "template";
		return r && ae(r) === $.element && (i = ce(r), a = Ro(oe(r))), lt[t] ? t === at ? Ct(n, i, a) : t === it ? wt(n, i, a) : t === ot ? Tt(n, i, a) : _t === "application/xhtml+xml" : !1;
	}, Dt = function(e) {
		Do(t.removed, { element: e }), Bt(e);
		try {
			v(e).removeChild(e);
		} catch {
			if (p(e), !v(e)) throw Zo("a node selected for removal could not be detached from its tree and cannot be safely returned; refusing to sanitize in place");
		}
	}, L = function(e, t, n) {
		try {
			h(e, t);
		} catch {
			try {
				e.removeAttribute(n);
			} catch {}
		}
	}, Ot = function(e) {
		Mt(e);
		let t = _(e);
		t && wo(Oo(t), (t) => {
			try {
				m(e, t);
			} catch {}
		}), ae(e) === $.element && At(e, !1);
	}, kt = function(e, n, r) {
		if (!r) try {
			r = n.getAttributeNode(e);
		} catch {
			r = null;
		}
		if (Do(t.removed, {
			attribute: r || null,
			from: n
		}), r) L(n, r, e);
		else try {
			n.removeAttribute(e);
		} catch {}
		if (e === "is") {
			if (A || j) try {
				Dt(n);
			} catch {}
			else try {
				n.setAttribute(e, "");
			} catch {}
		}
	}, At = function(e, t) {
		let n = te(e);
		if (n) for (let r = n.length - 1; r >= 0; --r) {
			let i = n[r], a = i && i.name;
			typeof a == "string" && !(t && E[N(a)]) && L(e, i, a);
		}
	}, jt = function(e, t) {
		let n = arguments.length > 2 && arguments[2] !== void 0 && arguments[2], r = [e];
		for (; r.length > 0;) {
			let e = r.pop();
			if (t(e) === !1) continue;
			if (n && ae(e) === $.element) {
				let t = ee(e);
				Qt(t) && r.push(t);
			}
			let i = _(e);
			if (i) for (let e = i.length - 1; e >= 0; --e) r.push(i[e]);
		}
	}, Mt = function(e) {
		jt(e, (e) => {
			ae(e) === $.element && At(e, !0);
		});
	}, Nt = function(e) {
		let t = [];
		return jt(e, (e) => {
			t.push(e);
		}, !0), t;
	}, Pt = function(e, t) {
		let n = jo();
		wo(Nt(e), (e) => {
			ae(e) === $.element && Mo(n, e);
		}), wo(t, (e) => {
			ae(e) === $.element && !No(n, e) && At(e, !0);
		});
	}, Ft = function(e, n) {
		let r = !1;
		return wo(t.removed, (t) => {
			t.element && (r ||= t.element === e, Mt(t.element));
		}), Pt(e, n), r;
	}, It = function(e, t) {
		Ot(e), Ft(e, t);
	}, Lt = function(e, t) {
		let n = M, r = null, i = () => (r || (r = jo(), wo(t, (e) => {
			Mo(r, e);
		})), r);
		for (let t = 0;; t++) {
			let r = Nt(e), a = [e], o = !1;
			if (wo(r, (e) => {
				ae(e) === $.documentFragment ? Do(a, e) : !o && !No(n, e) && (o = No(i(), e));
			}), !o) return;
			if (t >= 8) throw Zo("the tree kept changing during in-place sanitization; refusing to return it");
			wo(a, (t, n) => {
				Rt(t, n > 0, e, i());
			});
		}
	}, Rt = function(e, t, n, r) {
		let i = Wt(e), a;
		for (; a = i.nextNode();) No(r, a) && !No(M, a) && (t && en(S.uponSanitizeShadowNode, a, null), mn(a, n));
	}, zt = function(e) {
		if (!M) return;
		Mo(M, e);
		let t = Io(Xe, e);
		if (t !== void 0) {
			if (t >= 8) throw Zo("the tree kept changing during in-place sanitization; refusing to return it");
			Lo(Xe, e, t + 1);
		}
	}, Bt = function(e) {
		M && (Po(M, e), Io(Xe, e) === void 0 && Lo(Xe, e, 0));
	}, Vt = function(e, t) {
		return ze ? e === "patchsrc" || e === "for" && t !== "label" && t !== "output" : !1;
	}, Ht = function(e) {
		ze && jt(e, (e) => {
			let t = ae(e);
			if (t === $.processingInstruction || t === $.comment && X(js, e.data)) {
				try {
					p(e);
				} catch {}
				return !1;
			}
			if (t === $.element) {
				let t = e, n = N(oe(e));
				try {
					t.hasAttribute && t.hasAttribute("patchsrc") && t.removeAttribute("patchsrc"), t.hasAttribute && t.hasAttribute("for") && Vt("for", n) && t.removeAttribute("for");
				} catch {}
			}
			return !0;
		});
	}, Ut = function(e) {
		let t = null, r = null;
		if (Ue) e = "<remove></remove>" + e;
		else {
			let t = Bo(e, Is);
			r = t && t[0];
		}
		_t === "application/xhtml+xml" && st === ot && (e = "<html xmlns=\"http://www.w3.org/1999/xhtml\"><head></head><body>" + e + "</body></html>");
		let i = ue ? he(e) : e;
		if (st === ot) try {
			t = new l().parseFromString(i, _t);
		} catch {}
		if (!t || !t.documentElement) {
			t = ye.createDocument(st, "template", null);
			try {
				t.documentElement.innerHTML = ct ? de : i;
			} catch {}
		}
		let a = t.body || t.documentElement;
		return e && r && a.insertBefore(n.createTextNode(r), a.childNodes[0] || null), st === ot ? xe.call(t, Be ? "html" : "body")[0] : Be ? t.documentElement : a;
	}, Wt = function(e) {
		let t = arguments.length > 1 && arguments[1] !== void 0 && arguments[1], n = ie ? ie(e) : e.ownerDocument;
		return x.call(n || e, e, (t ? 0 : c.SHOW_ELEMENT) | c.SHOW_COMMENT | c.SHOW_TEXT | c.SHOW_PROCESSING_INSTRUCTION | c.SHOW_CDATA_SECTION, null);
	}, Gt = function(e) {
		return e = Vo(e, Ce, " "), e = Vo(e, we, " "), e = Vo(e, Te, " "), e;
	}, Kt = function(e) {
		Yt(e);
		let t = e.querySelectorAll?.call(e, "template");
		t && wo(t, (e) => {
			Qt(e.content) && Kt(e.content);
		});
	}, qt = Q({}, [
		"caption",
		"colgroup",
		"col",
		"thead",
		"tbody",
		"tfoot",
		"tr",
		"td",
		"th",
		"style",
		"script",
		"template"
	]), Jt = function(e) {
		if (_t === "application/xhtml+xml") return;
		let t = e.querySelectorAll?.call(e, "table,tbody,thead,tfoot,tr,colgroup");
		t && t.length !== 0 && wo(t, (t) => {
			wo(Oo(_(t)), (n) => {
				let r = ae(n);
				if (!(r === $.text ? X(xs, n.data) : r === $.element && !qt[Ro(oe(n))])) return;
				let i = t;
				for (; i && Ro(oe(i)) !== "table";) i = i === e ? null : v(i);
				let a = i && i !== e ? v(i) : null;
				if (a) try {
					a.insertBefore(n, i);
				} catch {}
			});
		});
	}, Yt = function(e) {
		Jt(e), e.normalize();
		let t = Wt(e, !0), n = null, r = t.nextNode();
		for (; r;) {
			let e = r.data;
			if (X(Ss, e) && (e = Vo(e, Ss, ""), r.data = e), X(bs, e) && (e = Gt(e), r.data = e), e && ae(r) === $.text) {
				if (n) {
					let t = n.data;
					X(bs, t[t.length - 1] + e[0]) && (n.data = Gt(t + e[0]));
				}
				n = r;
			}
			r = t.nextNode();
		}
	}, Xt = function(e) {
		let t = re ? re(e) : null;
		return typeof t != "string" || N(t) !== "form" ? !1 : typeof e.nodeName != "string" || typeof e.textContent != "string" || typeof e.removeChild != "function" || e.attributes !== te(e) || typeof e.removeAttribute != "function" || typeof e.removeAttributeNode != "function" || typeof e.getAttributeNode != "function" || typeof e.setAttribute != "function" || typeof e.namespaceURI != "string" || typeof e.insertBefore != "function" || typeof e.hasChildNodes != "function" || e.nodeType !== ne(e) || e.childNodes !== _(e);
	}, Zt = function(e) {
		if (!ne || typeof e != "object" || !e) return null;
		try {
			let t = ne(e);
			return typeof t == "number" ? t : null;
		} catch {
			return null;
		}
	}, Qt = function(e) {
		return Zt(e) === $.documentFragment;
	}, $t = function(e) {
		return Zt(e) !== null;
	};
	function en(e, n, r) {
		e.length !== 0 && wo(e, (e) => {
			e.call(t, n, r, yt);
		});
	}
	let tn = function(e, t) {
		let n = !!zs[t], r = !!Ls[t];
		return !n && !r && !Rs[t] || ce(e) !== ot ? !1 : n ? e.hasChildNodes() : $t(e.firstElementChild) ? !0 : r && typeof e.textContent == "string" && X(As, e.textContent);
	}, nn = function(e, t, n) {
		return !!(ze && n === $.element && e.hasChildNodes() && !$t(e.firstElementChild) && X(As, e.textContent) && X(As, e.innerHTML) || ze && n === $.element && tn(e, t) || n === $.processingInstruction || ze && n === $.comment && X(Ms, e.data));
	}, R = function(e, t) {
		return e instanceof RegExp ? X(e, t) : e instanceof Function && !!e(t, ...[...arguments].slice(2));
	}, rn = function(e, t, n) {
		if (!Me[t] && ln(t) && R(je.tagNameCheck, t)) return !1;
		if (Je && !Qe[t] && !Qe[Ro(t)]) {
			let t = v(e), r = _(e);
			if (r && t) {
				let i = r.length;
				for (let a = i - 1; a >= 0; --a) {
					let i = e === n ? f(r[a], !0) : r[a];
					t.insertBefore(i, g(e));
				}
			}
		}
		return Dt(e), !0;
	}, an = function(e, t, n, r) {
		return e.length === 0 ? t : t === n || t === r ? ts(t) : t;
	}, on = function(e, t) {
		return e === t || v(e) !== null ? !1 : (Ye && Mt(e), Bt(e), !0);
	}, sn = function(e, n) {
		if (zt(e), en(S.beforeSanitizeElements, e, null), on(e, n)) return !0;
		if (Xt(e)) return Dt(e), !0;
		let r = N(oe(e)), i = ae(e);
		if (T = an(S.uponSanitizeElement, T, Ae, k), en(S.uponSanitizeElement, e, {
			tagName: r,
			allowedTags: T
		}), on(e, n)) return !0;
		if (nn(e, r, i)) return Dt(e), !0;
		if ((Me[r] || !(Pe.tagCheck instanceof Function && Pe.tagCheck(r)) && !T[r]) && rn(e, r, n)) return !0;
		if (i === $.element && !Et(e) || (r === "noscript" || r === "noembed" || r === "noframes") && X(Ns, e.innerHTML)) return Dt(e), !0;
		if (O && i === $.text) {
			let n = e.textContent, r = Gt(n);
			n !== r && (Do(t.removed, { element: e.cloneNode() }), e.textContent = r);
		}
		return en(S.afterSanitizeElements, e, null), on(e, n);
	}, cn = function(e, t, r) {
		if (Ne[t] || Vt(t, e) || Ge && (t === "id" || t === "name") && (r in n || r in bt)) return !1;
		let i = E[t] || Pe.attributeCheck instanceof Function && Pe.attributeCheck(t, e);
		if (Ie && X(C, t) || Fe && X(Ee, t)) return !0;
		if (!i) return ln(e) && R(je.tagNameCheck, e) && R(je.attributeNameCheck, t, e) || t === "is" && je.allowCustomizedBuiltInElements && R(je.tagNameCheck, r);
		if (nt[t]) return !0;
		let a = Vo(r, w, "");
		return X(ke, a) || (t === "src" || t === "xlink:href" || t === "href") && e !== "script" && Ho(r, "data:") === 0 && et[e] || Le && !X(De, a) ? !0 : !r;
	}, z = Q({}, [
		"annotation-xml",
		"color-profile",
		"font-face",
		"font-face-format",
		"font-face-name",
		"font-face-src",
		"font-face-uri",
		"missing-glyph"
	]), ln = function(e) {
		return !z[Ro(e)] && X(Oe, e);
	}, un = function(e, t, n, r) {
		if (ue && typeof u == "object" && typeof u.getAttributeType == "function" && !n) switch (u.getAttributeType(e, t)) {
			case "TrustedHTML": return he(r);
			case "TrustedScriptURL": return _e(r);
		}
		return r;
	}, dn = function(e, t, n, r) {
		try {
			return n ? e.setAttributeNS(n, t, r) : e.setAttribute(t, r), !Xt(e) || (Dt(e), !1);
		} catch {
			return kt(t, e), !1;
		}
	}, fn = function(e, t) {
		return ze && X(Fs, t) ? !0 : Ro(e) === "attributename" && Ho(t, "href") !== -1;
	}, pn = function(e, n) {
		if (en(S.beforeSanitizeAttributes, e, null), on(e, n)) return;
		let r = le(e);
		if (!r || Xt(e)) return;
		E = an(S.uponSanitizeAttribute, E, D, He);
		let i = {
			attrName: "",
			attrValue: "",
			keepAttr: !0,
			allowedAttributes: E,
			forceKeepAttr: void 0
		}, a = r.length, o = N(oe(e));
		for (; a--;) {
			let n = r[a];
			if (!n) continue;
			let s = n.name, c = n.namespaceURI, l = n.value, u = N(s), d = l, f = s === "value" ? d : Uo(d), p = !1;
			i.attrName = u, i.attrValue = f, i.keepAttr = !0, i.forceKeepAttr = void 0, en(S.uponSanitizeAttribute, e, i), f = i.attrValue, Ke && (u === "id" || u === "name") && Ho(f, qe) !== 0 && (kt(s, e, n), f = qe + f, p = !0), fn(s, f) ? kt(s, e, n) : i.forceKeepAttr || (i.keepAttr ? !Re && X(Ps, f) ? kt(s, e, n) : (O && (f = Gt(f)), cn(o, u, f) ? (f = un(o, u, c, f), f !== d && dn(e, s, c, f) && p && Eo(t.removed)) : kt(s, e, n)) : kt(s, e, n));
		}
		en(S.afterSanitizeAttributes, e, null), on(e, n);
	}, mn = function(e, t) {
		sn(e, t), pn(e, t), Qt(e.content) && hn(e.content);
	}, hn = function(e) {
		let t = null, n = Wt(e);
		for (en(S.beforeSanitizeShadowDOM, e, null); t = n.nextNode();) if (en(S.uponSanitizeShadowNode, t, null), mn(t, e), ae(t) === $.element) {
			let e = ee(t);
			Qt(e) && (gn(e), hn(e));
		}
		O && Yt(e), en(S.afterSanitizeShadowDOM, e, null);
	}, gn = function(e) {
		let t = [{
			node: e,
			shadow: null
		}];
		for (; t.length > 0;) {
			let e = t.pop();
			if (e.shadow) {
				hn(e.shadow);
				continue;
			}
			let n = e.node, r = ae(n) === $.element, i = _(n);
			if (i) for (let e = i.length - 1; e >= 0; --e) t.push({
				node: i[e],
				shadow: null
			});
			if (r) {
				let e = re ? re(n) : null;
				if (typeof e == "string" && N(e) === "template") {
					let e = n.content;
					Qt(e) && t.push({
						node: e,
						shadow: null
					});
				}
			}
			if (r) {
				let e = ee(n);
				Qt(e) && t.push({
					node: null,
					shadow: e
				}, {
					node: e,
					shadow: null
				});
			}
		}
	}, _n = function(e) {
		let n = arguments.length > 1 && arguments[1] !== void 0 ? arguments[1] : {}, i = null, a = null, o = null, s = null;
		if (ct = !e, ct && (e = "<!-->"), typeof e != "string" && !$t(e) && (e = ns(e), typeof e != "string")) throw Zo("dirty is not a string, aborting");
		if (!t.isSupported) return e;
		Ve ? (T = k, E = He) : xt(n), P = yt, t.removed = [];
		let c = Ye && typeof e != "string" && $t(e), l = [], u = M, d = Xe;
		if (c) {
			Ht(e), l = Nt(e);
			let t = oe(e);
			if (typeof t == "string") {
				let n = N(t);
				if (!T[n] || Me[n]) throw It(e, l), Zo("root node is forbidden and cannot be sanitized in-place");
			}
			if (Xt(e)) throw It(e, l), Zo("root node is clobbered and cannot be sanitized in-place");
			M = jo(), Xe = Fo();
		} else if ($t(e)) i = Ut("<!---->"), a = i.ownerDocument.importNode(e, !0), a.nodeType === $.element && a.nodeName === "BODY" || a.nodeName === "HTML" ? i = a : i.appendChild(a), gn(i);
		else {
			if (!A && !O && !Be && e.indexOf("<") === -1) return ge(e);
			if (i = Ut(e), !i) return A ? null : We ? de : "";
		}
		i && Ue && Dt(i.firstChild);
		let f = c ? e : i;
		try {
			c && gn(e);
			let t = Wt(f);
			for (; o = t.nextNode();) mn(o, f);
			c && Lt(e, l);
		} catch (t) {
			throw c && It(e, l), t;
		} finally {
			M = u, Xe = d;
		}
		if (c) {
			if (Ft(e, l)) throw Zo("a node selected for removal could not be safely returned; refusing to sanitize in place");
			return O && Kt(e), e;
		}
		if (A) {
			if (O && Kt(i), j) for (s = be.call(i.ownerDocument); i.firstChild;) s.appendChild(i.firstChild);
			else s = i;
			return (E.shadowroot || E.shadowrootmode) && (s = Se.call(r, s, !0)), s;
		}
		O && Yt(i);
		let p = Be ? i.outerHTML : i.innerHTML;
		return Be && T["!doctype"] && i.ownerDocument && i.ownerDocument.doctype && i.ownerDocument.doctype.name && X(Os, i.ownerDocument.doctype.name) && (p = "<!DOCTYPE " + i.ownerDocument.doctype.name + ">\n" + p), ge(p);
	};
	return t.sanitize = function(e) {
		let n = arguments.length > 1 && arguments[1] !== void 0 ? arguments[1] : {}, r = P, i = T, a = E, o = t.removed;
		P = null;
		try {
			return _n(e, n);
		} finally {
			P = r, r && (Ve || xt(r), T = i, E = a, t.removed = o);
		}
	}, t.setConfig = function() {
		let e = arguments.length > 0 && arguments[0] !== void 0 ? arguments[0] : {};
		xt(e), Ve = !0, k = T, He = E;
	}, t.clearConfig = function() {
		yt = null, Ve = !1, k = null, He = null, ue = fe, de = "";
	}, t.isValidAttribute = function(e, t, n) {
		yt || xt({});
		let r = N(e), i = N(t);
		return typeof n == "string" && (fn(t, n) || !Re && X(Ps, n)) ? !1 : cn(r, i, n);
	}, t.addHook = function(e, t) {
		typeof t == "function" && Jo(S, e) && Do(S[e], t);
	}, t.removeHook = function(e, t) {
		if (Jo(S, e)) {
			if (t !== void 0) {
				let n = To(S[e], t);
				return n === -1 ? void 0 : ko(S[e], n, 1)[0];
			}
			return Eo(S[e]);
		}
	}, t.removeHooks = function(e) {
		Jo(S, e) && (S[e] = []);
	}, t.removeAllHooks = function() {
		S = Hs();
	}, t;
}
// web/src/sanitize.ts
var Ks = Gs()(window), qs = {
	FORBID_TAGS: [
		"form",
		"input",
		"button",
		"textarea",
		"select",
		"iframe",
		"frame",
		"frameset",
		"object",
		"embed",
		"base",
		"meta",
		"link",
		"style",
		"template",
		"noscript",
		"portal"
	],
	FORBID_ATTR: [
		"srcdoc",
		"formaction",
		"action",
		"ping",
		"background",
		"xlink:href"
	],
	ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
	ALLOW_DATA_ATTR: !1,
	ALLOW_UNKNOWN_PROTOCOLS: !1,
	SAFE_FOR_TEMPLATES: !1,
	RETURN_DOM_FRAGMENT: !0
}, Js = /^data:image\/(?:png|jpe?g|gif|webp);/i, Ys = /* @__PURE__ */ new Set([
	"href",
	"src",
	"srcset",
	"poster",
	"cite",
	"data"
]);
Ks.addHook("uponSanitizeAttribute", (e, t) => {
	t.attrName === "attributename" && /^(?:xlink:)?href$|^on/i.test(t.attrValue.trim()) && (t.keepAttr = !1), Ys.has(t.attrName) && /^\s*data:/i.test(t.attrValue) && !Js.test(t.attrValue.trim()) && (t.keepAttr = !1);
}), Ks.addHook("afterSanitizeAttributes", (e) => {
	e.tagName === "A" && e.hasAttribute("href") && (e.setAttribute("target", "_blank"), e.setAttribute("rel", "noopener noreferrer"));
});
function Xs(e) {
	return Ks.sanitize(e, {
		...qs,
		RETURN_DOM_FRAGMENT: !0
	});
}
// web/src/markdown.ts
function Zs(e) {
	return Xs(q.parse(e, {
		async: !1,
		gfm: !0
	}));
}
// web/src/outputs/call-tree.ts
function Qs(e) {
	return W("span", {
		class: `nh-badge nh-status-${e.replace(/[^a-z-]/g, "")}`,
		text: e
	});
}
var $s = (e, t) => {
	let n = e[t];
	return typeof n == "string" ? n : void 0;
};
function ec(e) {
	let t = e.streams;
	return Array.isArray(t) ? t.filter((e) => !!e && typeof e == "object" && typeof e.text == "string" && typeof e.name == "string") : [];
}
function tc(e, t) {
	return W(t, {
		class: `nh-stream nh-stream-${e.name === "stderr" ? "stderr" : "stdout"}`,
		"aria-label": e.name
	}, W("pre", { text: e.text.replace(/\n$/, "") }));
}
var nc = 120;
function rc(e) {
	return e.kind === "tool" && e.toolName ? e.toolName : e.kind === "assign" && e.targetPath ? `${e.targetPath} = ${e.expression ?? "…"}` : e.kind === "output" ? [$s(e, "outcome") ?? (e.expression ? "return" : "output"), e.expression].filter(Boolean).join(" ") : e.expression ? e.expression : e.toolName && !e.toolName.startsWith("nh_") ? e.toolName : e.kind;
}
function ic(e, t) {
	let n = `[data-operation-id="${CSS.escape(t)}"]`, r = (e.closest(".nh-run") ?? e.closest(".output") ?? document).querySelector(n) ?? document.querySelector(n);
	r && (r.scrollIntoView({
		block: "center",
		behavior: "smooth"
	}), r.classList.remove("nh-flash"), r.offsetWidth, r.classList.add("nh-flash"), r.focus({ preventScroll: !0 }));
}
function ac(e) {
	let t = $s(e, "valuePreview");
	if (t === void 0) return null;
	let n = t.length > nc ? `${t.slice(0, 119)}…` : t;
	return W("code", {
		class: "nh-op-value",
		title: t,
		"aria-label": `value ${t}`,
		text: `→ ${n}`
	});
}
function oc(e) {
	let t = W("li", {
		class: `nh-op nh-op-${e.status}`,
		"data-operation-id": e.operationId,
		"data-status": e.status,
		tabindex: -1
	});
	if (t.append(W("div", { class: "nh-op-head" }, Qs(e.status), W("span", {
		class: "nh-op-kind",
		text: e.kind
	}), W("code", {
		class: "nh-op-label",
		text: rc(e)
	}), ac(e), W("span", {
		class: "nh-id",
		text: e.operationId
	}))), e.rejection && t.append(W("div", { class: "nh-rejection" }, W("div", { class: "nh-reason" }, W("strong", { text: "Rejected: " }), e.rejection.reason), e.rejection.guidance ? W("div", { class: "nh-guidance" }, W("strong", { text: "Guidance: " }), e.rejection.guidance) : null)), e.abortReason && t.append(W("div", { class: "nh-abort" }, W("strong", { text: "Aborted: " }), e.abortReason)), e.failure && t.append(W("div", { class: "nh-failure" }, W("strong", { text: `${e.failure.errorClass}: ` }), e.failure.message)), e.blockedByOperationId) {
		let n = e.blockedByOperationId, r = W("a", {
			href: `#op-${n}`,
			class: "nh-blocked-link",
			text: n
		});
		r.addEventListener("click", (e) => {
			e.preventDefault(), ic(r, n);
		}), t.append(W("div", { class: "nh-blocked" }, "Skipped because ", r, " did not complete"));
	}
	return t;
}
function sc(e) {
	if (e === void 0) return "—";
	try {
		return typeof e == "string" ? JSON.stringify(e) : JSON.stringify(e, null, 0) ?? String(e);
	} catch {
		return String(e);
	}
}
function cc(e) {
	let t = [.../* @__PURE__ */ new Set([...Object.keys(e.proposed), ...Object.keys(e.committed)])].map((t) => {
		let n = sc(e.proposed[t]), r = sc(e.committed[t]), i = n !== r;
		return W("tr", { class: i ? "nh-changed" : "" }, W("th", {
			scope: "row",
			text: t
		}), W("td", {}, W(i ? "del" : "span", { text: n })), W("td", {}, W(i ? "ins" : "span", { text: r })));
	});
	return W("div", { class: "nh-commit" }, W("div", { class: "nh-commit-head" }, W("strong", { text: "Step commit" }), e.rewritten ? Qs("rewritten") : null), W("table", { class: "nh-commit-table" }, W("thead", {}, W("tr", {}, W("th", {
		scope: "col",
		text: "binding"
	}), W("th", {
		scope: "col",
		text: "proposed"
	}), W("th", {
		scope: "col",
		text: "committed"
	}))), W("tbody", {}, ...t)));
}
function lc(e, t) {
	let n = W("li", {
		class: `nh-execution nh-exec-${e.status}`,
		"data-execution-id": e.executionId
	});
	n.append(W("div", { class: "nh-exec-head" }, Qs(e.status), W("span", {
		class: "nh-exec-title",
		text: `Natural step ${e.stepId}`
	}), W("span", {
		class: "nh-id",
		text: e.executionId
	})));
	let r = ec(e);
	if (e.operations.length || r.length) {
		let t = (e) => r.filter((t) => t.afterOperationId === e).map((e) => tc(e, "li"));
		n.append(W("ol", {
			class: "nh-ops",
			"aria-label": "operations"
		}, ...t(void 0), ...e.operations.flatMap((e) => [oc(e), ...t(e.operationId)])));
	}
	e.commit && n.append(cc(e.commit)), e.error && n.append(W("div", { class: "nh-failure" }, W("strong", { text: `${e.error.name}: ` }), e.error.message));
	let i = t.get(e.executionId) ?? [];
	return i.length && n.append(W("ol", { class: "nh-executions" }, ...i.map((e) => lc(e, t)))), n;
}
function uc(e, t = []) {
	let n = new Set(e.map((e) => e.executionId)), r = /* @__PURE__ */ new Map(), i = [];
	for (let t of e) if (t.parentExecutionId && n.has(t.parentExecutionId)) {
		let e = r.get(t.parentExecutionId) ?? [];
		e.push(t), r.set(t.parentExecutionId, e);
	} else i.push(t);
	let a = /* @__PURE__ */ new Map(), o = (e, t) => {
		a.set(t.executionId, e);
		for (let n of r.get(t.executionId) ?? []) o(e, n);
	};
	for (let e of i) o(e.executionId, e);
	let s = (e) => t.filter((t) => (t.afterExecutionId ? a.get(t.afterExecutionId) ?? t.afterExecutionId : void 0) === e).map((e) => tc(e, "li"));
	return W("ol", { class: "nh-executions" }, ...s(void 0), ...i.flatMap((e) => [lc(e, r), ...s(e.executionId)]));
}
function dc(e) {
	let t = e.executions.flatMap((e) => e.operations), n = /* @__PURE__ */ new Map();
	for (let e of t) n.set(e.status, (n.get(e.status) ?? 0) + 1);
	let r = [...n].map(([e, t]) => `${t} ${e}`).join(", ");
	return W("section", {
		class: `nh-run nh-run-${e.status}`,
		"data-run-id": e.runId,
		"aria-label": `run ${e.functionName}`
	}, W("header", { class: "nh-run-head" }, Qs(e.status), W("strong", {
		class: "nh-run-fn",
		text: e.functionName
	}), W("span", {
		class: "nh-id",
		text: e.runId
	}), W("span", {
		class: "nh-run-summary",
		text: r
	}), e.status === "running" ? W("span", {
		class: "nh-spinner",
		role: "progressbar",
		"aria-label": "run in progress"
	}) : null), uc(e.executions, ec(e)));
}
function fc(e) {
	return W("section", { class: "nh-run" }, uc([e]));
}
function pc(e) {
	return W("section", { class: "nh-run" }, W("ol", { class: "nh-ops" }, oc(e)));
}
// web/src/outputs/approval-view.ts
var mc = 0;
function hc(e) {
	let t = e.answered;
	return t && typeof t == "object" && typeof t.kind == "string" ? t : void 0;
}
var gc = {
	accept: "accepted",
	"reject-operation": "rejected",
	"abort-step": "aborted"
}, _c = {
	accept: "completed",
	"reject-operation": "rejected",
	"abort-step": "aborted"
};
function vc(e) {
	let t = new Date(e ?? Date.now());
	return [
		t.getHours(),
		t.getMinutes(),
		t.getSeconds()
	].map((e) => String(e).padStart(2, "0")).join(":");
}
function yc(e, t) {
	let n = gc[t.kind] ?? t.kind, r = `${n} by ${t.by ?? "operator"}, ${vc(t.at)}`;
	return W("details", {
		class: `nh-approval nh-approval-answered nh-approval-${n}`,
		"data-answered": t.kind,
		"data-request-id": e.requestId,
		"aria-label": `approval ${r}`
	}, W("summary", { class: "nh-approval-line" }, W("span", {
		class: `nh-badge nh-status-${_c[t.kind] ?? "pending"}`,
		text: n
	}), W("span", {
		class: "nh-approval-what",
		text: e.prompt.replace(/ Allow it\?$/, "")
	}), W("span", {
		class: "nh-approval-when",
		text: r
	})), W("ol", { class: "nh-ops" }, oc({
		...e.operation,
		status: _c[t.kind] ?? "completed"
	})), t.reason ? W("div", { class: "nh-reason" }, W("strong", { text: "Reason: " }), t.reason) : null, t.guidance ? W("div", { class: "nh-guidance" }, W("strong", { text: "Guidance: " }), t.guidance) : null);
}
function bc(e, t) {
	let n = hc(e);
	if (n) return yc(e, n);
	let r = `approval-${++mc}`, i = W("input", {
		id: `${r}-reason`,
		type: "text",
		class: "nh-approval-reason",
		placeholder: "Why is this not allowed?"
	}), a = W("input", {
		id: `${r}-guidance`,
		type: "text",
		class: "nh-approval-guidance",
		placeholder: "What should the model do instead?"
	}), o = W("p", {
		class: "nh-approval-status",
		role: "status"
	}), s = W("form", {
		class: "nh-approval",
		"aria-label": "operator approval",
		"data-request-id": e.requestId
	}), c = [], l = (n) => {
		n.kind !== "accept" && !n.reason ? (o.textContent = "Give a reason first.", i.focus()) : (t(e.requestId, n), s.replaceWith(yc(e, {
			...n,
			by: "operator",
			at: Date.now()
		})));
	}, u = (e) => e.value.trim();
	return c.push(oi("Accept", () => l({ kind: "accept" }), { class: "btn btn-accept" }), oi("Reject", () => l({
		kind: "reject-operation",
		reason: u(i),
		...u(a) ? { guidance: u(a) } : {}
	}), { class: "btn btn-reject" }), oi("Abort step", () => l({
		kind: "abort-step",
		reason: u(i)
	}), { class: "btn btn-abort" })), s.addEventListener("submit", (e) => e.preventDefault()), s.append(W("p", { class: "nh-approval-prompt" }, W("strong", { text: "Approval needed. " }), e.prompt), W("ol", { class: "nh-ops" }, oc(e.operation)), W("div", { class: "nh-approval-fields" }, W("label", {
		for: `${r}-reason`,
		text: "Reason"
	}), i, W("label", {
		for: `${r}-guidance`,
		text: "Guidance"
	}), a), W("div", { class: "nh-approval-buttons" }, ...c), o), s;
}
var xc = 8, Sc = 360;
function Cc(e, t) {
	let n = e.length > 6 ? e.slice(-6) : e;
	return t ? `${t}·${n}` : e.length > 10 ? `run·${n}` : e;
}
var wc = (e, t) => e[t], Tc = (e, t) => {
	let n = wc(e, t);
	return typeof n == "string" ? n : void 0;
};
function Ec(e) {
	try {
		return JSON.stringify(e, null, 2) ?? String(e);
	} catch {
		return String(e);
	}
}
function Dc(e) {
	let t = [Tc(e, "subjectId"), e.parentId].filter((e) => !!e);
	for (let e of t) {
		let t = CSS.escape(e), n = document.querySelector(`.nh-run [data-operation-id="${t}"], .nh-run [data-execution-id="${t}"], .nh-run[data-run-id="${t}"]`);
		if (n) return n;
	}
	return document.querySelector(`.nh-run[data-run-id="${CSS.escape(e.runId)}"]`);
}
function Oc(e) {
	let t = new Date(e);
	return Number.isNaN(t.getTime()) ? String(e) : t.toISOString().slice(11, 23);
}
function kc(e, t, n, r, i = (e) => e) {
	let a = W("select", { "aria-label": e }, W("option", {
		value: "",
		text: `all ${t}`
	}), ...n.map((e) => W("option", {
		value: e,
		text: i(e),
		title: e
	})));
	return a.addEventListener("change", r), a;
}
var Ac = class {
	element;
	viewport;
	spacer;
	layer;
	count;
	runFilter;
	kindFilter;
	statusFilter;
	textFilter;
	entries;
	searchText;
	visible = [];
	pool = [];
	renderedFirst = -1;
	frame = 0;
	labels = /* @__PURE__ */ new Map();
	detail;
	expanded;
	highlighted = null;
	constructor(e) {
		this.entries = [...e.entries].sort((e, t) => e.sequence - t.sequence);
		let t = (e) => [...new Set(this.entries.map(e).filter((e) => !!e))].sort(), n = () => this.applyFilters();
		for (let e of this.entries) {
			let t = Tc(e, "runLabel");
			t && this.labels.set(e.runId, t);
		}
		this.runFilter = kc("run", "runs", t((e) => e.runId), n, (e) => Cc(e, this.labels.get(e))), this.detail = W("div", {
			class: "nh-ledger-detail",
			role: "region",
			"aria-label": "ledger event"
		}), this.kindFilter = kc("kind", "kinds", t((e) => e.kind), n), this.statusFilter = kc("status", "statuses", t((e) => e.status), n), this.textFilter = W("input", {
			type: "search",
			placeholder: "Filter text…",
			"aria-label": "filter ledger text",
			class: "nh-ledger-search"
		}), this.textFilter.addEventListener("input", n), this.count = W("span", {
			class: "nh-ledger-count",
			"aria-live": "polite"
		}), this.spacer = W("div", { class: "nh-ledger-spacer" }), this.layer = W("div", {
			class: "nh-ledger-rows",
			role: "rowgroup"
		}), this.viewport = W("div", {
			class: "nh-ledger-viewport",
			tabindex: 0,
			"aria-label": "ledger entries"
		}, this.spacer, this.layer), this.viewport.addEventListener("scroll", () => this.schedule(), { passive: !0 }), this.layer.addEventListener("click", (e) => {
			let t = e.target.closest(".nh-ledger-row");
			t?.dataset.sequence && this.toggle(Number(t.dataset.sequence));
		}), this.layer.addEventListener("keydown", (e) => {
			let t = e.target.closest(".nh-ledger-row");
			!t?.dataset.sequence || e.key !== "Enter" && e.key !== " " || (e.preventDefault(), e.stopPropagation(), this.toggle(Number(t.dataset.sequence)));
		});
		let r = W("div", {
			class: "nh-ledger-row nh-ledger-header",
			role: "row"
		}, ...[
			"#",
			"run",
			"kind",
			"status",
			"summary",
			"at"
		].map((e) => W("span", {
			role: "columnheader",
			text: e
		})));
		this.element = W("section", {
			class: "nh-ledger",
			role: "table",
			"aria-label": e.runId ? `ledger of run ${e.runId}` : "ledger"
		}, W("div", { class: "nh-ledger-filters" }, this.runFilter, this.kindFilter, this.statusFilter, this.textFilter, this.count), r, this.viewport, this.detail), e.runId && this.runFilter.querySelector(`option[value="${CSS.escape(e.runId)}"]`) && t((e) => e.runId).length > 1 && (this.runFilter.value = e.runId), this.applyFilters();
	}
	applyFilters() {
		let e = this.runFilter.value, t = this.kindFilter.value, n = this.statusFilter.value, r = this.textFilter.value.trim().toLowerCase();
		r && !this.searchText && (this.searchText = this.entries.map((e) => `${e.sequence} ${e.runId} ${e.kind} ${e.status ?? ""} ${e.summary} ${e.parentId ?? ""}`.toLowerCase()));
		let i = [];
		for (let a = 0; a < this.entries.length; a++) {
			let o = this.entries[a];
			e && o.runId !== e || t && o.kind !== t || n && o.status !== n || (!r || this.searchText[a].includes(r)) && i.push(a);
		}
		this.visible = i;
		let a = i.length <= 200;
		this.element.classList.toggle("nh-ledger-flow", a), this.spacer.style.height = a ? "0px" : `${i.length * 28}px`, this.viewport.style.height = a ? "" : `${Math.min(i.length * 28, Sc)}px`, this.element.setAttribute("aria-rowcount", String(i.length)), this.count.textContent = `${i.length} of ${this.entries.length} entries`, this.viewport.scrollTop = 0, this.renderedFirst = -1, this.render();
	}
	schedule() {
		this.frame || this.flow || (this.frame = requestAnimationFrame(() => {
			this.frame = 0, this.render();
		}));
	}
	get flow() {
		return this.visible.length <= 200;
	}
	render() {
		if (this.flow) return this.renderFlow();
		let e = this.viewport.clientHeight || Sc, t = Math.max(0, Math.floor(this.viewport.scrollTop / 28) - xc), n = Math.min(this.visible.length, Math.ceil((this.viewport.scrollTop + e) / 28) + xc);
		if (t === this.renderedFirst && this.layer.childElementCount === n - t) return;
		this.renderedFirst = t;
		let r = n - t;
		for (; this.pool.length < r;) this.pool.push(this.makeRow());
		for (; this.layer.childElementCount > r;) this.layer.lastElementChild.remove();
		for (let e = 0; e < r; e++) {
			let n = this.pool[e];
			this.fillRow(n, t + e), n.parentNode !== this.layer && this.layer.appendChild(n);
		}
		this.layer.style.transform = `translateY(${t * 28}px)`, this.detail.parentNode !== this.element && this.element.appendChild(this.detail);
	}
	renderFlow() {
		this.layer.style.transform = "";
		let e = this.visible.map((e, t) => {
			let n = this.pool[t] ?? this.makeRow();
			return this.pool[t] = n, this.fillRow(n, t), n;
		});
		this.layer.replaceChildren(...e), this.placeDetail();
	}
	placeDetail() {
		if (this.expanded === void 0) {
			this.detail.replaceChildren(), this.detail.hidden = !0;
			return;
		}
		this.detail.hidden = !1;
		let e = this.layer.querySelector(`.nh-ledger-row[data-sequence="${this.expanded}"]`);
		this.flow && e ? e.after(this.detail) : this.detail.parentNode !== this.element && this.element.appendChild(this.detail);
	}
	toggle(e) {
		this.highlighted?.classList.remove("nh-ledger-match"), this.highlighted = null;
		let t = this.entries.find((t) => t.sequence === e);
		if (!t || this.expanded === e) this.expanded = void 0;
		else {
			this.expanded = e;
			let n = wc(t, "data"), { data: r, ...i } = t;
			this.detail.replaceChildren(W("div", { class: "nh-ledger-detail-head" }, W("strong", { text: `#${t.sequence} ${t.kind}` }), W("span", {
				class: "nh-id",
				title: t.runId,
				text: ` run ${t.runId}`
			})), W("pre", {
				class: "nh-ledger-json",
				text: Ec(n === void 0 ? i : {
					...i,
					data: n
				})
			}));
			let a = Dc(t);
			a && (a.classList.add("nh-ledger-match"), a.scrollIntoView({ block: "nearest" }), this.highlighted = a);
		}
		for (let e of this.layer.querySelectorAll(".nh-ledger-row")) e.setAttribute("aria-expanded", String(Number(e.dataset.sequence) === this.expanded));
		this.placeDetail();
	}
	makeRow() {
		return W("div", {
			class: "nh-ledger-row",
			role: "row",
			tabindex: 0,
			"aria-expanded": "false"
		}, ...Array.from({ length: 6 }, () => W("span", { role: "cell" })));
	}
	fillRow(e, t) {
		let n = this.entries[this.visible[t]];
		e.setAttribute("aria-rowindex", String(t + 1)), e.dataset.sequence = String(n.sequence);
		let r = e.children;
		r[0].textContent = String(n.sequence), r[1].textContent = Cc(n.runId, this.labels.get(n.runId)), r[1].setAttribute("title", n.runId), e.setAttribute("aria-expanded", String(n.sequence === this.expanded)), r[2].textContent = n.kind, r[3].textContent = n.status ?? "", r[3].className = n.status ? `nh-badge nh-status-${n.status.replace(/[^a-z-]/g, "")}` : "", r[4].textContent = n.summary, r[4].setAttribute("title", n.summary), r[5].textContent = Oc(n.at);
	}
};
// web/src/outputs/render-mime.ts
function jc(e, t) {
	return (n, r) => {
		let i = e.safeParse(typeof n == "string" ? Mc(n) : n);
		return i.success ? t(i.data, r) : null;
	};
}
function Mc(e) {
	try {
		return JSON.parse(e);
	} catch {
		return;
	}
}
var Nc = (e) => typeof e == "string" ? e : null;
function Pc(e) {
	return (t) => {
		let n = Nc(t);
		return n ? W("img", {
			src: `data:${e};base64,${n.replace(/\s/g, "")}`,
			alt: "image output",
			class: "output-image"
		}) : null;
	};
}
var Fc = [
	[L.approval, jc(ti, (e, t) => bc(e, t.answerApproval))],
	[L.run, jc(Xr, dc)],
	[L.execution, jc(Yr, fc)],
	[L.operation, jc(qr, pc)],
	[L.stepCommit, jc(Jr, cc)],
	[L.traceAnomaly, jc(Zr, (e) => W("div", {
		class: "nh-anomaly",
		role: "alert"
	}, Qs("anomaly"), W("strong", { text: ` ${e.anomalyKind}: ` }), e.message, e.runId ? W("span", {
		class: "nh-id",
		text: ` run ${e.runId}`
	}) : null, e.executionId ? W("span", {
		class: "nh-id",
		text: ` execution ${e.executionId}`
	}) : null))],
	[L.allocationExhausted, jc(Qr, (e) => W("div", {
		class: "nh-exhausted",
		role: "alert"
	}, Qs("exhausted"), W("strong", { text: " Allocation exhausted: " }), e.resource, W("span", {
		class: "nh-id",
		text: ` run ${e.runId}`
	})))],
	[L.ledger, jc(ei, (e) => new Ac(e).element)],
	["text/html", (e) => {
		let t = Nc(e);
		return t === null ? null : W("div", { class: "output-html" }, Xs(t));
	}],
	["text/markdown", (e) => {
		let t = Nc(e);
		return t === null ? null : W("div", { class: "output-markdown markdown-body" }, Zs(t));
	}],
	["image/svg+xml", (e) => {
		let t = Nc(e);
		return t === null ? null : W("img", {
			src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(t)}`,
			alt: "SVG output",
			class: "output-image"
		});
	}],
	["image/png", Pc("image/png")],
	["image/jpeg", Pc("image/jpeg")],
	["text/plain", (e) => {
		let t = Nc(e);
		return t === null ? null : W("pre", { class: "output-text" }, ri(t));
	}],
	["application/json", (e) => W("pre", {
		class: "output-json",
		text: JSON.stringify(typeof e == "string" ? Mc(e) ?? e : e, null, 2)
	})]
];
function Ic(e, t) {
	for (let [n, r] of Fc) {
		if (!(n in e)) continue;
		let i = r(e[n], t);
		if (i) return i.dataset.mime = n, i;
	}
	let [n, r] = Object.entries(e)[0] ?? ["text/plain", ""];
	return W("pre", {
		class: "output-text",
		"data-mime": n,
		text: typeof r == "string" ? r : JSON.stringify(r, null, 2)
	});
}
// labextension/src/index.ts
var Lc = [
	L.run,
	L.ledger,
	L.execution,
	L.operation,
	L.stepCommit,
	L.traceAnomaly,
	L.allocationExhausted
], Rc = class extends j {
	mimeType;
	constructor(e) {
		super(), this.mimeType = e, this.addClass("nh-lab-output");
	}
	renderModel(e) {
		let t = e.data, n = { [this.mimeType]: t[this.mimeType] };
		return typeof t["text/plain"] == "string" && (n["text/plain"] = t["text/plain"]), this.node.replaceChildren(Ic(n, { answerApproval: () => {} })), Promise.resolve();
	}
}, zc = {
	safe: !0,
	mimeTypes: [...Lc],
	defaultRank: 50,
	createRenderer: (e) => new Rc(e.mimeType)
}, Bc = {
	id: "nighthawk-ts-renderer:plugin",
	description: "Renders Nighthawk run views and ledgers",
	rendererFactory: zc,
	rank: 50,
	dataType: "json"
};
export { Lc as MIME_TYPES, Rc as NighthawkRenderer, Bc as default, zc as rendererFactory };
