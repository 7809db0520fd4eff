# issue 20: 790 etcd servers and two days: never paints
machine add s0
s0$ etcd --name s0
machine add s1
s1$ etcd --name s1
machine add s2
s2$ etcd --name s2
machine add s3
s3$ etcd --name s3
machine add s4
s4$ etcd --name s4
machine add s5
s5$ etcd --name s5
machine add s6
s6$ etcd --name s6
machine add s7
s7$ etcd --name s7
machine add s8
s8$ etcd --name s8
machine add s9
s9$ etcd --name s9
machine add s10
s10$ etcd --name s10
machine add s11
s11$ etcd --name s11
machine add s12
s12$ etcd --name s12
machine add s13
s13$ etcd --name s13
machine add s14
s14$ etcd --name s14
machine add s15
s15$ etcd --name s15
machine add s16
s16$ etcd --name s16
machine add s17
s17$ etcd --name s17
machine add s18
s18$ etcd --name s18
machine add s19
s19$ etcd --name s19
machine add s20
s20$ etcd --name s20
machine add s21
s21$ etcd --name s21
machine add s22
s22$ etcd --name s22
machine add s23
s23$ etcd --name s23
machine add s24
s24$ etcd --name s24
machine add s25
s25$ etcd --name s25
machine add s26
s26$ etcd --name s26
machine add s27
s27$ etcd --name s27
machine add s28
s28$ etcd --name s28
machine add s29
s29$ etcd --name s29
machine add s30
s30$ etcd --name s30
machine add s31
s31$ etcd --name s31
machine add s32
s32$ etcd --name s32
machine add s33
s33$ etcd --name s33
machine add s34
s34$ etcd --name s34
machine add s35
s35$ etcd --name s35
machine add s36
s36$ etcd --name s36
machine add s37
s37$ etcd --name s37
machine add s38
s38$ etcd --name s38
machine add s39
s39$ etcd --name s39
machine add s40
s40$ etcd --name s40
machine add s41
s41$ etcd --name s41
machine add s42
s42$ etcd --name s42
machine add s43
s43$ etcd --name s43
machine add s44
s44$ etcd --name s44
machine add s45
s45$ etcd --name s45
machine add s46
s46$ etcd --name s46
machine add s47
s47$ etcd --name s47
machine add s48
s48$ etcd --name s48
machine add s49
s49$ etcd --name s49
machine add s50
s50$ etcd --name s50
machine add s51
s51$ etcd --name s51
machine add s52
s52$ etcd --name s52
machine add s53
s53$ etcd --name s53
machine add s54
s54$ etcd --name s54
machine add s55
s55$ etcd --name s55
machine add s56
s56$ etcd --name s56
machine add s57
s57$ etcd --name s57
machine add s58
s58$ etcd --name s58
machine add s59
s59$ etcd --name s59
machine add s60
s60$ etcd --name s60
machine add s61
s61$ etcd --name s61
machine add s62
s62$ etcd --name s62
machine add s63
s63$ etcd --name s63
machine add s64
s64$ etcd --name s64
machine add s65
s65$ etcd --name s65
machine add s66
s66$ etcd --name s66
machine add s67
s67$ etcd --name s67
machine add s68
s68$ etcd --name s68
machine add s69
s69$ etcd --name s69
machine add s70
s70$ etcd --name s70
machine add s71
s71$ etcd --name s71
machine add s72
s72$ etcd --name s72
machine add s73
s73$ etcd --name s73
machine add s74
s74$ etcd --name s74
machine add s75
s75$ etcd --name s75
machine add s76
s76$ etcd --name s76
machine add s77
s77$ etcd --name s77
machine add s78
s78$ etcd --name s78
machine add s79
s79$ etcd --name s79
machine add s80
s80$ etcd --name s80
machine add s81
s81$ etcd --name s81
machine add s82
s82$ etcd --name s82
machine add s83
s83$ etcd --name s83
machine add s84
s84$ etcd --name s84
machine add s85
s85$ etcd --name s85
machine add s86
s86$ etcd --name s86
machine add s87
s87$ etcd --name s87
machine add s88
s88$ etcd --name s88
machine add s89
s89$ etcd --name s89
machine add s90
s90$ etcd --name s90
machine add s91
s91$ etcd --name s91
machine add s92
s92$ etcd --name s92
machine add s93
s93$ etcd --name s93
machine add s94
s94$ etcd --name s94
machine add s95
s95$ etcd --name s95
machine add s96
s96$ etcd --name s96
machine add s97
s97$ etcd --name s97
machine add s98
s98$ etcd --name s98
machine add s99
s99$ etcd --name s99
machine add s100
s100$ etcd --name s100
machine add s101
s101$ etcd --name s101
machine add s102
s102$ etcd --name s102
machine add s103
s103$ etcd --name s103
machine add s104
s104$ etcd --name s104
machine add s105
s105$ etcd --name s105
machine add s106
s106$ etcd --name s106
machine add s107
s107$ etcd --name s107
machine add s108
s108$ etcd --name s108
machine add s109
s109$ etcd --name s109
machine add s110
s110$ etcd --name s110
machine add s111
s111$ etcd --name s111
machine add s112
s112$ etcd --name s112
machine add s113
s113$ etcd --name s113
machine add s114
s114$ etcd --name s114
machine add s115
s115$ etcd --name s115
machine add s116
s116$ etcd --name s116
machine add s117
s117$ etcd --name s117
machine add s118
s118$ etcd --name s118
machine add s119
s119$ etcd --name s119
machine add s120
s120$ etcd --name s120
machine add s121
s121$ etcd --name s121
machine add s122
s122$ etcd --name s122
machine add s123
s123$ etcd --name s123
machine add s124
s124$ etcd --name s124
machine add s125
s125$ etcd --name s125
machine add s126
s126$ etcd --name s126
machine add s127
s127$ etcd --name s127
machine add s128
s128$ etcd --name s128
machine add s129
s129$ etcd --name s129
machine add s130
s130$ etcd --name s130
machine add s131
s131$ etcd --name s131
machine add s132
s132$ etcd --name s132
machine add s133
s133$ etcd --name s133
machine add s134
s134$ etcd --name s134
machine add s135
s135$ etcd --name s135
machine add s136
s136$ etcd --name s136
machine add s137
s137$ etcd --name s137
machine add s138
s138$ etcd --name s138
machine add s139
s139$ etcd --name s139
machine add s140
s140$ etcd --name s140
machine add s141
s141$ etcd --name s141
machine add s142
s142$ etcd --name s142
machine add s143
s143$ etcd --name s143
machine add s144
s144$ etcd --name s144
machine add s145
s145$ etcd --name s145
machine add s146
s146$ etcd --name s146
machine add s147
s147$ etcd --name s147
machine add s148
s148$ etcd --name s148
machine add s149
s149$ etcd --name s149
machine add s150
s150$ etcd --name s150
machine add s151
s151$ etcd --name s151
machine add s152
s152$ etcd --name s152
machine add s153
s153$ etcd --name s153
machine add s154
s154$ etcd --name s154
machine add s155
s155$ etcd --name s155
machine add s156
s156$ etcd --name s156
machine add s157
s157$ etcd --name s157
machine add s158
s158$ etcd --name s158
machine add s159
s159$ etcd --name s159
machine add s160
s160$ etcd --name s160
machine add s161
s161$ etcd --name s161
machine add s162
s162$ etcd --name s162
machine add s163
s163$ etcd --name s163
machine add s164
s164$ etcd --name s164
machine add s165
s165$ etcd --name s165
machine add s166
s166$ etcd --name s166
machine add s167
s167$ etcd --name s167
machine add s168
s168$ etcd --name s168
machine add s169
s169$ etcd --name s169
machine add s170
s170$ etcd --name s170
machine add s171
s171$ etcd --name s171
machine add s172
s172$ etcd --name s172
machine add s173
s173$ etcd --name s173
machine add s174
s174$ etcd --name s174
machine add s175
s175$ etcd --name s175
machine add s176
s176$ etcd --name s176
machine add s177
s177$ etcd --name s177
machine add s178
s178$ etcd --name s178
machine add s179
s179$ etcd --name s179
machine add s180
s180$ etcd --name s180
machine add s181
s181$ etcd --name s181
machine add s182
s182$ etcd --name s182
machine add s183
s183$ etcd --name s183
machine add s184
s184$ etcd --name s184
machine add s185
s185$ etcd --name s185
machine add s186
s186$ etcd --name s186
machine add s187
s187$ etcd --name s187
machine add s188
s188$ etcd --name s188
machine add s189
s189$ etcd --name s189
machine add s190
s190$ etcd --name s190
machine add s191
s191$ etcd --name s191
machine add s192
s192$ etcd --name s192
machine add s193
s193$ etcd --name s193
machine add s194
s194$ etcd --name s194
machine add s195
s195$ etcd --name s195
machine add s196
s196$ etcd --name s196
machine add s197
s197$ etcd --name s197
machine add s198
s198$ etcd --name s198
machine add s199
s199$ etcd --name s199
machine add s200
s200$ etcd --name s200
machine add s201
s201$ etcd --name s201
machine add s202
s202$ etcd --name s202
machine add s203
s203$ etcd --name s203
machine add s204
s204$ etcd --name s204
machine add s205
s205$ etcd --name s205
machine add s206
s206$ etcd --name s206
machine add s207
s207$ etcd --name s207
machine add s208
s208$ etcd --name s208
machine add s209
s209$ etcd --name s209
machine add s210
s210$ etcd --name s210
machine add s211
s211$ etcd --name s211
machine add s212
s212$ etcd --name s212
machine add s213
s213$ etcd --name s213
machine add s214
s214$ etcd --name s214
machine add s215
s215$ etcd --name s215
machine add s216
s216$ etcd --name s216
machine add s217
s217$ etcd --name s217
machine add s218
s218$ etcd --name s218
machine add s219
s219$ etcd --name s219
machine add s220
s220$ etcd --name s220
machine add s221
s221$ etcd --name s221
machine add s222
s222$ etcd --name s222
machine add s223
s223$ etcd --name s223
machine add s224
s224$ etcd --name s224
machine add s225
s225$ etcd --name s225
machine add s226
s226$ etcd --name s226
machine add s227
s227$ etcd --name s227
machine add s228
s228$ etcd --name s228
machine add s229
s229$ etcd --name s229
machine add s230
s230$ etcd --name s230
machine add s231
s231$ etcd --name s231
machine add s232
s232$ etcd --name s232
machine add s233
s233$ etcd --name s233
machine add s234
s234$ etcd --name s234
machine add s235
s235$ etcd --name s235
machine add s236
s236$ etcd --name s236
machine add s237
s237$ etcd --name s237
machine add s238
s238$ etcd --name s238
machine add s239
s239$ etcd --name s239
machine add s240
s240$ etcd --name s240
machine add s241
s241$ etcd --name s241
machine add s242
s242$ etcd --name s242
machine add s243
s243$ etcd --name s243
machine add s244
s244$ etcd --name s244
machine add s245
s245$ etcd --name s245
machine add s246
s246$ etcd --name s246
machine add s247
s247$ etcd --name s247
machine add s248
s248$ etcd --name s248
machine add s249
s249$ etcd --name s249
machine add s250
s250$ etcd --name s250
machine add s251
s251$ etcd --name s251
machine add s252
s252$ etcd --name s252
machine add s253
s253$ etcd --name s253
machine add s254
s254$ etcd --name s254
machine add s255
s255$ etcd --name s255
machine add s256
s256$ etcd --name s256
machine add s257
s257$ etcd --name s257
machine add s258
s258$ etcd --name s258
machine add s259
s259$ etcd --name s259
machine add s260
s260$ etcd --name s260
machine add s261
s261$ etcd --name s261
machine add s262
s262$ etcd --name s262
machine add s263
s263$ etcd --name s263
machine add s264
s264$ etcd --name s264
machine add s265
s265$ etcd --name s265
machine add s266
s266$ etcd --name s266
machine add s267
s267$ etcd --name s267
machine add s268
s268$ etcd --name s268
machine add s269
s269$ etcd --name s269
machine add s270
s270$ etcd --name s270
machine add s271
s271$ etcd --name s271
machine add s272
s272$ etcd --name s272
machine add s273
s273$ etcd --name s273
machine add s274
s274$ etcd --name s274
machine add s275
s275$ etcd --name s275
machine add s276
s276$ etcd --name s276
machine add s277
s277$ etcd --name s277
machine add s278
s278$ etcd --name s278
machine add s279
s279$ etcd --name s279
machine add s280
s280$ etcd --name s280
machine add s281
s281$ etcd --name s281
machine add s282
s282$ etcd --name s282
machine add s283
s283$ etcd --name s283
machine add s284
s284$ etcd --name s284
machine add s285
s285$ etcd --name s285
machine add s286
s286$ etcd --name s286
machine add s287
s287$ etcd --name s287
machine add s288
s288$ etcd --name s288
machine add s289
s289$ etcd --name s289
machine add s290
s290$ etcd --name s290
machine add s291
s291$ etcd --name s291
machine add s292
s292$ etcd --name s292
machine add s293
s293$ etcd --name s293
machine add s294
s294$ etcd --name s294
machine add s295
s295$ etcd --name s295
machine add s296
s296$ etcd --name s296
machine add s297
s297$ etcd --name s297
machine add s298
s298$ etcd --name s298
machine add s299
s299$ etcd --name s299
machine add s300
s300$ etcd --name s300
machine add s301
s301$ etcd --name s301
machine add s302
s302$ etcd --name s302
machine add s303
s303$ etcd --name s303
machine add s304
s304$ etcd --name s304
machine add s305
s305$ etcd --name s305
machine add s306
s306$ etcd --name s306
machine add s307
s307$ etcd --name s307
machine add s308
s308$ etcd --name s308
machine add s309
s309$ etcd --name s309
machine add s310
s310$ etcd --name s310
machine add s311
s311$ etcd --name s311
machine add s312
s312$ etcd --name s312
machine add s313
s313$ etcd --name s313
machine add s314
s314$ etcd --name s314
machine add s315
s315$ etcd --name s315
machine add s316
s316$ etcd --name s316
machine add s317
s317$ etcd --name s317
machine add s318
s318$ etcd --name s318
machine add s319
s319$ etcd --name s319
machine add s320
s320$ etcd --name s320
machine add s321
s321$ etcd --name s321
machine add s322
s322$ etcd --name s322
machine add s323
s323$ etcd --name s323
machine add s324
s324$ etcd --name s324
machine add s325
s325$ etcd --name s325
machine add s326
s326$ etcd --name s326
machine add s327
s327$ etcd --name s327
machine add s328
s328$ etcd --name s328
machine add s329
s329$ etcd --name s329
machine add s330
s330$ etcd --name s330
machine add s331
s331$ etcd --name s331
machine add s332
s332$ etcd --name s332
machine add s333
s333$ etcd --name s333
machine add s334
s334$ etcd --name s334
machine add s335
s335$ etcd --name s335
machine add s336
s336$ etcd --name s336
machine add s337
s337$ etcd --name s337
machine add s338
s338$ etcd --name s338
machine add s339
s339$ etcd --name s339
machine add s340
s340$ etcd --name s340
machine add s341
s341$ etcd --name s341
machine add s342
s342$ etcd --name s342
machine add s343
s343$ etcd --name s343
machine add s344
s344$ etcd --name s344
machine add s345
s345$ etcd --name s345
machine add s346
s346$ etcd --name s346
machine add s347
s347$ etcd --name s347
machine add s348
s348$ etcd --name s348
machine add s349
s349$ etcd --name s349
machine add s350
s350$ etcd --name s350
machine add s351
s351$ etcd --name s351
machine add s352
s352$ etcd --name s352
machine add s353
s353$ etcd --name s353
machine add s354
s354$ etcd --name s354
machine add s355
s355$ etcd --name s355
machine add s356
s356$ etcd --name s356
machine add s357
s357$ etcd --name s357
machine add s358
s358$ etcd --name s358
machine add s359
s359$ etcd --name s359
machine add s360
s360$ etcd --name s360
machine add s361
s361$ etcd --name s361
machine add s362
s362$ etcd --name s362
machine add s363
s363$ etcd --name s363
machine add s364
s364$ etcd --name s364
machine add s365
s365$ etcd --name s365
machine add s366
s366$ etcd --name s366
machine add s367
s367$ etcd --name s367
machine add s368
s368$ etcd --name s368
machine add s369
s369$ etcd --name s369
machine add s370
s370$ etcd --name s370
machine add s371
s371$ etcd --name s371
machine add s372
s372$ etcd --name s372
machine add s373
s373$ etcd --name s373
machine add s374
s374$ etcd --name s374
machine add s375
s375$ etcd --name s375
machine add s376
s376$ etcd --name s376
machine add s377
s377$ etcd --name s377
machine add s378
s378$ etcd --name s378
machine add s379
s379$ etcd --name s379
machine add s380
s380$ etcd --name s380
machine add s381
s381$ etcd --name s381
machine add s382
s382$ etcd --name s382
machine add s383
s383$ etcd --name s383
machine add s384
s384$ etcd --name s384
machine add s385
s385$ etcd --name s385
machine add s386
s386$ etcd --name s386
machine add s387
s387$ etcd --name s387
machine add s388
s388$ etcd --name s388
machine add s389
s389$ etcd --name s389
machine add s390
s390$ etcd --name s390
machine add s391
s391$ etcd --name s391
machine add s392
s392$ etcd --name s392
machine add s393
s393$ etcd --name s393
machine add s394
s394$ etcd --name s394
machine add s395
s395$ etcd --name s395
machine add s396
s396$ etcd --name s396
machine add s397
s397$ etcd --name s397
machine add s398
s398$ etcd --name s398
machine add s399
s399$ etcd --name s399
machine add s400
s400$ etcd --name s400
machine add s401
s401$ etcd --name s401
machine add s402
s402$ etcd --name s402
machine add s403
s403$ etcd --name s403
machine add s404
s404$ etcd --name s404
machine add s405
s405$ etcd --name s405
machine add s406
s406$ etcd --name s406
machine add s407
s407$ etcd --name s407
machine add s408
s408$ etcd --name s408
machine add s409
s409$ etcd --name s409
machine add s410
s410$ etcd --name s410
machine add s411
s411$ etcd --name s411
machine add s412
s412$ etcd --name s412
machine add s413
s413$ etcd --name s413
machine add s414
s414$ etcd --name s414
machine add s415
s415$ etcd --name s415
machine add s416
s416$ etcd --name s416
machine add s417
s417$ etcd --name s417
machine add s418
s418$ etcd --name s418
machine add s419
s419$ etcd --name s419
machine add s420
s420$ etcd --name s420
machine add s421
s421$ etcd --name s421
machine add s422
s422$ etcd --name s422
machine add s423
s423$ etcd --name s423
machine add s424
s424$ etcd --name s424
machine add s425
s425$ etcd --name s425
machine add s426
s426$ etcd --name s426
machine add s427
s427$ etcd --name s427
machine add s428
s428$ etcd --name s428
machine add s429
s429$ etcd --name s429
machine add s430
s430$ etcd --name s430
machine add s431
s431$ etcd --name s431
machine add s432
s432$ etcd --name s432
machine add s433
s433$ etcd --name s433
machine add s434
s434$ etcd --name s434
machine add s435
s435$ etcd --name s435
machine add s436
s436$ etcd --name s436
machine add s437
s437$ etcd --name s437
machine add s438
s438$ etcd --name s438
machine add s439
s439$ etcd --name s439
machine add s440
s440$ etcd --name s440
machine add s441
s441$ etcd --name s441
machine add s442
s442$ etcd --name s442
machine add s443
s443$ etcd --name s443
machine add s444
s444$ etcd --name s444
machine add s445
s445$ etcd --name s445
machine add s446
s446$ etcd --name s446
machine add s447
s447$ etcd --name s447
machine add s448
s448$ etcd --name s448
machine add s449
s449$ etcd --name s449
machine add s450
s450$ etcd --name s450
machine add s451
s451$ etcd --name s451
machine add s452
s452$ etcd --name s452
machine add s453
s453$ etcd --name s453
machine add s454
s454$ etcd --name s454
machine add s455
s455$ etcd --name s455
machine add s456
s456$ etcd --name s456
machine add s457
s457$ etcd --name s457
machine add s458
s458$ etcd --name s458
machine add s459
s459$ etcd --name s459
machine add s460
s460$ etcd --name s460
machine add s461
s461$ etcd --name s461
machine add s462
s462$ etcd --name s462
machine add s463
s463$ etcd --name s463
machine add s464
s464$ etcd --name s464
machine add s465
s465$ etcd --name s465
machine add s466
s466$ etcd --name s466
machine add s467
s467$ etcd --name s467
machine add s468
s468$ etcd --name s468
machine add s469
s469$ etcd --name s469
machine add s470
s470$ etcd --name s470
machine add s471
s471$ etcd --name s471
machine add s472
s472$ etcd --name s472
machine add s473
s473$ etcd --name s473
machine add s474
s474$ etcd --name s474
machine add s475
s475$ etcd --name s475
machine add s476
s476$ etcd --name s476
machine add s477
s477$ etcd --name s477
machine add s478
s478$ etcd --name s478
machine add s479
s479$ etcd --name s479
machine add s480
s480$ etcd --name s480
machine add s481
s481$ etcd --name s481
machine add s482
s482$ etcd --name s482
machine add s483
s483$ etcd --name s483
machine add s484
s484$ etcd --name s484
machine add s485
s485$ etcd --name s485
machine add s486
s486$ etcd --name s486
machine add s487
s487$ etcd --name s487
machine add s488
s488$ etcd --name s488
machine add s489
s489$ etcd --name s489
machine add s490
s490$ etcd --name s490
machine add s491
s491$ etcd --name s491
machine add s492
s492$ etcd --name s492
machine add s493
s493$ etcd --name s493
machine add s494
s494$ etcd --name s494
machine add s495
s495$ etcd --name s495
machine add s496
s496$ etcd --name s496
machine add s497
s497$ etcd --name s497
machine add s498
s498$ etcd --name s498
machine add s499
s499$ etcd --name s499
machine add s500
s500$ etcd --name s500
machine add s501
s501$ etcd --name s501
machine add s502
s502$ etcd --name s502
machine add s503
s503$ etcd --name s503
machine add s504
s504$ etcd --name s504
machine add s505
s505$ etcd --name s505
machine add s506
s506$ etcd --name s506
machine add s507
s507$ etcd --name s507
machine add s508
s508$ etcd --name s508
machine add s509
s509$ etcd --name s509
machine add s510
s510$ etcd --name s510
machine add s511
s511$ etcd --name s511
machine add s512
s512$ etcd --name s512
machine add s513
s513$ etcd --name s513
machine add s514
s514$ etcd --name s514
machine add s515
s515$ etcd --name s515
machine add s516
s516$ etcd --name s516
machine add s517
s517$ etcd --name s517
machine add s518
s518$ etcd --name s518
machine add s519
s519$ etcd --name s519
machine add s520
s520$ etcd --name s520
machine add s521
s521$ etcd --name s521
machine add s522
s522$ etcd --name s522
machine add s523
s523$ etcd --name s523
machine add s524
s524$ etcd --name s524
machine add s525
s525$ etcd --name s525
machine add s526
s526$ etcd --name s526
machine add s527
s527$ etcd --name s527
machine add s528
s528$ etcd --name s528
machine add s529
s529$ etcd --name s529
machine add s530
s530$ etcd --name s530
machine add s531
s531$ etcd --name s531
machine add s532
s532$ etcd --name s532
machine add s533
s533$ etcd --name s533
machine add s534
s534$ etcd --name s534
machine add s535
s535$ etcd --name s535
machine add s536
s536$ etcd --name s536
machine add s537
s537$ etcd --name s537
machine add s538
s538$ etcd --name s538
machine add s539
s539$ etcd --name s539
machine add s540
s540$ etcd --name s540
machine add s541
s541$ etcd --name s541
machine add s542
s542$ etcd --name s542
machine add s543
s543$ etcd --name s543
machine add s544
s544$ etcd --name s544
machine add s545
s545$ etcd --name s545
machine add s546
s546$ etcd --name s546
machine add s547
s547$ etcd --name s547
machine add s548
s548$ etcd --name s548
machine add s549
s549$ etcd --name s549
machine add s550
s550$ etcd --name s550
machine add s551
s551$ etcd --name s551
machine add s552
s552$ etcd --name s552
machine add s553
s553$ etcd --name s553
machine add s554
s554$ etcd --name s554
machine add s555
s555$ etcd --name s555
machine add s556
s556$ etcd --name s556
machine add s557
s557$ etcd --name s557
machine add s558
s558$ etcd --name s558
machine add s559
s559$ etcd --name s559
machine add s560
s560$ etcd --name s560
machine add s561
s561$ etcd --name s561
machine add s562
s562$ etcd --name s562
machine add s563
s563$ etcd --name s563
machine add s564
s564$ etcd --name s564
machine add s565
s565$ etcd --name s565
machine add s566
s566$ etcd --name s566
machine add s567
s567$ etcd --name s567
machine add s568
s568$ etcd --name s568
machine add s569
s569$ etcd --name s569
machine add s570
s570$ etcd --name s570
machine add s571
s571$ etcd --name s571
machine add s572
s572$ etcd --name s572
machine add s573
s573$ etcd --name s573
machine add s574
s574$ etcd --name s574
machine add s575
s575$ etcd --name s575
machine add s576
s576$ etcd --name s576
machine add s577
s577$ etcd --name s577
machine add s578
s578$ etcd --name s578
machine add s579
s579$ etcd --name s579
machine add s580
s580$ etcd --name s580
machine add s581
s581$ etcd --name s581
machine add s582
s582$ etcd --name s582
machine add s583
s583$ etcd --name s583
machine add s584
s584$ etcd --name s584
machine add s585
s585$ etcd --name s585
machine add s586
s586$ etcd --name s586
machine add s587
s587$ etcd --name s587
machine add s588
s588$ etcd --name s588
machine add s589
s589$ etcd --name s589
machine add s590
s590$ etcd --name s590
machine add s591
s591$ etcd --name s591
machine add s592
s592$ etcd --name s592
machine add s593
s593$ etcd --name s593
machine add s594
s594$ etcd --name s594
machine add s595
s595$ etcd --name s595
machine add s596
s596$ etcd --name s596
machine add s597
s597$ etcd --name s597
machine add s598
s598$ etcd --name s598
machine add s599
s599$ etcd --name s599
machine add s600
s600$ etcd --name s600
machine add s601
s601$ etcd --name s601
machine add s602
s602$ etcd --name s602
machine add s603
s603$ etcd --name s603
machine add s604
s604$ etcd --name s604
machine add s605
s605$ etcd --name s605
machine add s606
s606$ etcd --name s606
machine add s607
s607$ etcd --name s607
machine add s608
s608$ etcd --name s608
machine add s609
s609$ etcd --name s609
machine add s610
s610$ etcd --name s610
machine add s611
s611$ etcd --name s611
machine add s612
s612$ etcd --name s612
machine add s613
s613$ etcd --name s613
machine add s614
s614$ etcd --name s614
machine add s615
s615$ etcd --name s615
machine add s616
s616$ etcd --name s616
machine add s617
s617$ etcd --name s617
machine add s618
s618$ etcd --name s618
machine add s619
s619$ etcd --name s619
machine add s620
s620$ etcd --name s620
machine add s621
s621$ etcd --name s621
machine add s622
s622$ etcd --name s622
machine add s623
s623$ etcd --name s623
machine add s624
s624$ etcd --name s624
machine add s625
s625$ etcd --name s625
machine add s626
s626$ etcd --name s626
machine add s627
s627$ etcd --name s627
machine add s628
s628$ etcd --name s628
machine add s629
s629$ etcd --name s629
machine add s630
s630$ etcd --name s630
machine add s631
s631$ etcd --name s631
machine add s632
s632$ etcd --name s632
machine add s633
s633$ etcd --name s633
machine add s634
s634$ etcd --name s634
machine add s635
s635$ etcd --name s635
machine add s636
s636$ etcd --name s636
machine add s637
s637$ etcd --name s637
machine add s638
s638$ etcd --name s638
machine add s639
s639$ etcd --name s639
machine add s640
s640$ etcd --name s640
machine add s641
s641$ etcd --name s641
machine add s642
s642$ etcd --name s642
machine add s643
s643$ etcd --name s643
machine add s644
s644$ etcd --name s644
machine add s645
s645$ etcd --name s645
machine add s646
s646$ etcd --name s646
machine add s647
s647$ etcd --name s647
machine add s648
s648$ etcd --name s648
machine add s649
s649$ etcd --name s649
machine add s650
s650$ etcd --name s650
machine add s651
s651$ etcd --name s651
machine add s652
s652$ etcd --name s652
machine add s653
s653$ etcd --name s653
machine add s654
s654$ etcd --name s654
machine add s655
s655$ etcd --name s655
machine add s656
s656$ etcd --name s656
machine add s657
s657$ etcd --name s657
machine add s658
s658$ etcd --name s658
machine add s659
s659$ etcd --name s659
machine add s660
s660$ etcd --name s660
machine add s661
s661$ etcd --name s661
machine add s662
s662$ etcd --name s662
machine add s663
s663$ etcd --name s663
machine add s664
s664$ etcd --name s664
machine add s665
s665$ etcd --name s665
machine add s666
s666$ etcd --name s666
machine add s667
s667$ etcd --name s667
machine add s668
s668$ etcd --name s668
machine add s669
s669$ etcd --name s669
machine add s670
s670$ etcd --name s670
machine add s671
s671$ etcd --name s671
machine add s672
s672$ etcd --name s672
machine add s673
s673$ etcd --name s673
machine add s674
s674$ etcd --name s674
machine add s675
s675$ etcd --name s675
machine add s676
s676$ etcd --name s676
machine add s677
s677$ etcd --name s677
machine add s678
s678$ etcd --name s678
machine add s679
s679$ etcd --name s679
machine add s680
s680$ etcd --name s680
machine add s681
s681$ etcd --name s681
machine add s682
s682$ etcd --name s682
machine add s683
s683$ etcd --name s683
machine add s684
s684$ etcd --name s684
machine add s685
s685$ etcd --name s685
machine add s686
s686$ etcd --name s686
machine add s687
s687$ etcd --name s687
machine add s688
s688$ etcd --name s688
machine add s689
s689$ etcd --name s689
machine add s690
s690$ etcd --name s690
machine add s691
s691$ etcd --name s691
machine add s692
s692$ etcd --name s692
machine add s693
s693$ etcd --name s693
machine add s694
s694$ etcd --name s694
machine add s695
s695$ etcd --name s695
machine add s696
s696$ etcd --name s696
machine add s697
s697$ etcd --name s697
machine add s698
s698$ etcd --name s698
machine add s699
s699$ etcd --name s699
machine add s700
s700$ etcd --name s700
machine add s701
s701$ etcd --name s701
machine add s702
s702$ etcd --name s702
machine add s703
s703$ etcd --name s703
machine add s704
s704$ etcd --name s704
machine add s705
s705$ etcd --name s705
machine add s706
s706$ etcd --name s706
machine add s707
s707$ etcd --name s707
machine add s708
s708$ etcd --name s708
machine add s709
s709$ etcd --name s709
machine add s710
s710$ etcd --name s710
machine add s711
s711$ etcd --name s711
machine add s712
s712$ etcd --name s712
machine add s713
s713$ etcd --name s713
machine add s714
s714$ etcd --name s714
machine add s715
s715$ etcd --name s715
machine add s716
s716$ etcd --name s716
machine add s717
s717$ etcd --name s717
machine add s718
s718$ etcd --name s718
machine add s719
s719$ etcd --name s719
machine add s720
s720$ etcd --name s720
machine add s721
s721$ etcd --name s721
machine add s722
s722$ etcd --name s722
machine add s723
s723$ etcd --name s723
machine add s724
s724$ etcd --name s724
machine add s725
s725$ etcd --name s725
machine add s726
s726$ etcd --name s726
machine add s727
s727$ etcd --name s727
machine add s728
s728$ etcd --name s728
machine add s729
s729$ etcd --name s729
machine add s730
s730$ etcd --name s730
machine add s731
s731$ etcd --name s731
machine add s732
s732$ etcd --name s732
machine add s733
s733$ etcd --name s733
machine add s734
s734$ etcd --name s734
machine add s735
s735$ etcd --name s735
machine add s736
s736$ etcd --name s736
machine add s737
s737$ etcd --name s737
machine add s738
s738$ etcd --name s738
machine add s739
s739$ etcd --name s739
machine add s740
s740$ etcd --name s740
machine add s741
s741$ etcd --name s741
machine add s742
s742$ etcd --name s742
machine add s743
s743$ etcd --name s743
machine add s744
s744$ etcd --name s744
machine add s745
s745$ etcd --name s745
machine add s746
s746$ etcd --name s746
machine add s747
s747$ etcd --name s747
machine add s748
s748$ etcd --name s748
machine add s749
s749$ etcd --name s749
machine add s750
s750$ etcd --name s750
machine add s751
s751$ etcd --name s751
machine add s752
s752$ etcd --name s752
machine add s753
s753$ etcd --name s753
machine add s754
s754$ etcd --name s754
machine add s755
s755$ etcd --name s755
machine add s756
s756$ etcd --name s756
machine add s757
s757$ etcd --name s757
machine add s758
s758$ etcd --name s758
machine add s759
s759$ etcd --name s759
machine add s760
s760$ etcd --name s760
machine add s761
s761$ etcd --name s761
machine add s762
s762$ etcd --name s762
machine add s763
s763$ etcd --name s763
machine add s764
s764$ etcd --name s764
machine add s765
s765$ etcd --name s765
machine add s766
s766$ etcd --name s766
machine add s767
s767$ etcd --name s767
machine add s768
s768$ etcd --name s768
machine add s769
s769$ etcd --name s769
machine add s770
s770$ etcd --name s770
machine add s771
s771$ etcd --name s771
machine add s772
s772$ etcd --name s772
machine add s773
s773$ etcd --name s773
machine add s774
s774$ etcd --name s774
machine add s775
s775$ etcd --name s775
machine add s776
s776$ etcd --name s776
machine add s777
s777$ etcd --name s777
machine add s778
s778$ etcd --name s778
machine add s779
s779$ etcd --name s779
machine add s780
s780$ etcd --name s780
machine add s781
s781$ etcd --name s781
machine add s782
s782$ etcd --name s782
machine add s783
s783$ etcd --name s783
machine add s784
s784$ etcd --name s784
machine add s785
s785$ etcd --name s785
machine add s786
s786$ etcd --name s786
machine add s787
s787$ etcd --name s787
machine add s788
s788$ etcd --name s788
machine add s789
s789$ etcd --name s789
sleep 24h
sleep 24h
